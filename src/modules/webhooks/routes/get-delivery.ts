import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { DELIVERY_EXAMPLE, DeliveryWithAttempts } from '../schemas.ts';
import { getDelivery } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/deliveries/:id',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['webhooks'],
        summary: 'One webhook delivery with the history of its attempts',
        description:
          'One delivery of an event to an endpoint: its status, the request as sent (headers and raw body) and every attempt with its answer or error.',
        params: EnvIdParams,
        response: respond(DeliveryWithAttempts, {
          example: {
            ...DELIVERY_EXAMPLE,
            request: {
              headers: {
                'content-type': 'application/json',
                'user-agent': 'Lastro-Webhooks/1.0',
                'webhook-id': '0194f3a2-7c1f-7b3a-9d2f-4e5a6b7c8d91',
              },
              body: '{"id":"0194f3a2-7c1f-7b3a-9d2f-4e5a6b7c8d91","type":"payment.completed"}',
              body_truncated: false,
            },
            attempt_history: [
              {
                attempt: 1,
                url: 'https://example.com/webhooks/lastro',
                started_at: '2026-11-26T03:05:12.000Z',
                duration_ms: 300,
                status_code: 200,
                error: null,
              },
            ],
          },
        }),
      },
    },
    async (request) => ({ data: await getDelivery(deps.db, contextOf(deps, request), request.params) }),
  );
}
