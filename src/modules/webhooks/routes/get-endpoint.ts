import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Endpoint } from '../schemas.ts';
import { getEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/endpoints/:id',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'Get a webhook endpoint (without its secret)',
        params: EnvIdParams,
        response: respond(Endpoint),
      },
    },
    async (request) => ({ data: await getEndpoint(deps.db, contextOf(deps, request), request.params) }),
  );
}
