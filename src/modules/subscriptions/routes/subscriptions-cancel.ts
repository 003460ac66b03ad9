import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Subscription, type SubscriptionView } from '../schemas.ts';
import { cancelSubscription } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type CancelSubscriptionResponse = { data: SubscriptionView };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/subscriptions/:id/cancel',
    {
      config: {
        auth: 'any',
        record: 'subscription',
        errors: ['not_found', 'invalid_state', 'provider_unavailable', 'conflict'],
      },
      schema: {
        tags: ['subscriptions'],
        summary: 'Cancel a Pix Automático subscription: no cycle is charged after it',
        description:
          'The receiver cancels (live: PATCH /rec/{idRec} status CANCELADA at the PSP, then PATCH /cobr/{txid} for a cycle already sent); the cycles not yet paid are cancelled and their payments expire, but a live cycle the payer paid first (or pays before its charge could be withdrawn) is credited. Errors: 404 not_found, 422 invalid_state (already refused, cancelled, expired or completed), 503 provider_unavailable (live PSP).',
        params: EnvIdParams,
        response: respond(Subscription, {
          example: {
            ...SUBSCRIPTION_EXAMPLE,
            status: 'cancelled',
            cancelled_by: 'receiver',
            next_due_date: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await actOnce(deps, request, () =>
        cancelSubscription(contextOf(deps, request), request.params, (fn) => request.write(fn)),
      ),
    }),
  );
}
