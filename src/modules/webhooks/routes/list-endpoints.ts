import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { ENDPOINT_EXAMPLE, Endpoint } from '../schemas.ts';
import { listEndpoints } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/endpoints',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['webhooks'],
        summary: 'List webhook endpoints of this environment, newest first',
        description:
          'The webhook endpoints of this environment, newest first, without their secrets; page with limit and cursor.',
        params: EnvParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(Endpoint), { example: [ENDPOINT_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listEndpoints(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
