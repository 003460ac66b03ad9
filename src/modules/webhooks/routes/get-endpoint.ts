import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { ENDPOINT_EXAMPLE, Endpoint } from '../schemas.ts';
import { getEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/endpoints/:id',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['webhooks'],
        summary: 'Get a webhook endpoint (without its secret)',
        description:
          'One webhook endpoint by its id; its secret is never answered again (rotate it to get a new one).',
        params: EnvIdParams,
        response: respond(Endpoint, { example: ENDPOINT_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getEndpoint(deps.db, contextOf(deps, request), request.params) }),
  );
}
