import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { AuthoriseBody, type AuthoriseRequest, Subscription, type SubscriptionView } from '../schemas.ts';
import { simulateAuthorisation } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type SimulateAuthoriseResponse = { data: SubscriptionView };
export type { AuthoriseRequest };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/subscriptions/:id/authorise',
    {
      config: {
        auth: 'any',
        sandboxOnly: true,
        record: 'subscription',
        errors: ['invalid_request', 'not_found', 'invalid_state'],
      },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: the payer authorises (approve true) or refuses a subscription at their PSP',
        description:
          'Moves a pending_authorisation subscription to active (subscription.authorised) or refused (subscription.refused). Errors: 400 invalid_request, 404 not_found, 422 invalid_state (not pending_authorisation).',
        params: SandboxEnvIdParams,
        body: AuthoriseBody,
        response: respond(Subscription, { example: SUBSCRIPTION_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await simulateAuthorisation(
        contextOf(deps, request),
        { ...request.params, ...request.body },
        (fn) => request.write(fn),
      ),
    }),
  );
}
