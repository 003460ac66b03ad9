import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Delivery } from '../schemas.ts';
import { retryDelivery } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/deliveries/:id/retry',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary:
          'Send a delivery again at once (same webhook-id); 422 invalid_state if its endpoint is disabled or deleted',
        params: EnvIdParams,
        response: respond(Delivery),
      },
    },
    async (request) => ({
      data: await request.write((tx) => retryDelivery(tx, contextOf(deps, request), request.params)),
    }),
  );
}
