import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import {
  FailPaymentsBody,
  type FailPaymentsRequest,
  Subscription,
  type SubscriptionView,
} from '../schemas.ts';
import { simulatePaymentFailures } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type SimulateFailPaymentsResponse = { data: SubscriptionView };
export type { FailPaymentsRequest };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/subscriptions/:id/fail-payments',
    {
      config: {
        auth: 'any',
        sandboxOnly: true,
        record: 'subscription',
        errors: ['invalid_request', 'not_found', 'invalid_state'],
      },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: the payer’s next payment attempts fail (no funds)',
        description:
          'The next `attempts` payment attempts of the subscription’s cycles fail: a cycle is retried as its retry policy allows (subscription.cycle_retrying), else fails (subscription.cycle_failed). Errors: 400 invalid_request, 404 not_found, 422 invalid_state (the subscription has ended).',
        params: SandboxEnvIdParams,
        body: FailPaymentsBody,
        response: respond(Subscription, { example: SUBSCRIPTION_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await simulatePaymentFailures(
        contextOf(deps, request),
        { ...request.params, ...request.body },
        (fn) => request.write(fn),
      ),
    }),
  );
}
