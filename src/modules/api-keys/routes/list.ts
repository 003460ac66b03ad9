import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { API_KEY_EXAMPLE, ApiKey } from '../schemas.ts';
import { listApiKeys } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/api-keys',
    {
      config: { auth: 'session', errors: [] },
      schema: {
        tags: ['owner'],
        summary: 'List API keys of this environment, newest first, without secrets',
        description:
          'The API keys of this environment, revoked ones included, newest first. Secrets are never answered again; last4 tells keys apart.',
        params: EnvParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(ApiKey), { example: [API_KEY_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listApiKeys(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
