import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { DELIVERY_EXAMPLE, Delivery } from '../schemas.ts';
import { retryDelivery } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/deliveries/:id/retry',
    {
      config: { auth: 'workspace', errors: ['not_found', 'invalid_state'] },
      schema: {
        tags: ['webhooks'],
        summary:
          'Send a delivery again at once (same webhook-id); 422 invalid_state if its endpoint is disabled or deleted',
        description:
          'Queues one more attempt of a delivery now, with the same webhook-id so a receiver that already handled it can tell. Its endpoint must exist and be enabled (422 invalid_state otherwise).',
        params: EnvIdParams,
        response: respond(Delivery, {
          example: {
            ...DELIVERY_EXAMPLE,
            status: 'pending',
            attempts: 3,
            last_status_code: 500,
            last_error: 'answered 500',
            delivered_at: null,
            next_attempt_at: '2026-11-26T03:20:00.000Z',
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => retryDelivery(tx, contextOf(deps, request), request.params)),
    }),
  );
}
