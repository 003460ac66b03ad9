import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { NextCycleBody, type NextCycleRequest, Subscription, type SubscriptionView } from '../schemas.ts';
import { setNextCycleAmount } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type SetNextCycleResponse = { data: SubscriptionView };
export type { NextCycleRequest };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/subscriptions/:id/cycles/next',
    {
      config: {
        auth: 'any',
        record: 'subscription',
        errors: ['invalid_request', 'invalid_amount', 'not_found', 'invalid_state', 'amount_out_of_range'],
      },
      schema: {
        tags: ['subscriptions'],
        summary: 'Set what the next cycle of a variable-amount subscription charges',
        description:
          'A variable-amount subscription (created with minimum_minor) charges its floor each cycle unless you set the amount of the next one: its cobr is sent for amount_minor (API Pix valor.original) when it is scheduled, 5 days before next_due_date, and the cycle after it charges the floor again unless you set it again. Setting it twice before then keeps the last. The amount must be at least minimum_minor (valorMinimoRecebedor, the floor the payer authorised) and at most the payer’s maximum when their PSP reports one (payer_maximum_minor). Errors: 400 invalid_request, 400 invalid_amount (not a positive amount), 404 not_found, 422 invalid_state (a fixed-amount subscription, or one that has ended), 422 amount_out_of_range (below the floor or above the payer’s maximum; nothing changes).',
        params: EnvIdParams,
        body: NextCycleBody,
        response: respond(Subscription, {
          example: {
            ...SUBSCRIPTION_EXAMPLE,
            amount_minor: null,
            minimum_minor: '2990',
            next_amount_minor: '4990',
          },
        }),
      },
    },
    async (request) => ({
      data: await setNextCycleAmount(contextOf(deps, request), { ...request.params, ...request.body }, (fn) =>
        request.write(fn),
      ),
    }),
  );
}
