import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { ApiKey } from '../schemas.ts';
import { revokeApiKey } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/api-keys/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['owner'],
        summary: 'Revoke an API key at once',
        params: EnvIdParams,
        response: respond(ApiKey),
      },
    },
    async (request) => ({
      data: await deps.db.transaction((tx) => revokeApiKey(tx, contextOf(deps, request), request.params)),
    }),
  );
}
