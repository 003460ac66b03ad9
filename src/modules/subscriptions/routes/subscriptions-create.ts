import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import {
  CreateSubscriptionBody,
  type CreateSubscriptionRequest,
  Subscription,
  type SubscriptionView,
} from '../schemas.ts';
import { createSubscription } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type CreateSubscriptionResponse = { data: SubscriptionView };
export type { CreateSubscriptionRequest };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/subscriptions',
    {
      config: {
        auth: 'any',
        errors: [
          'invalid_request',
          'invalid_amount',
          'forbidden',
          'not_found',
          'provider_unavailable',
          'conflict',
        ],
      },
      schema: {
        tags: ['subscriptions'],
        summary: 'Create a Pix Automático subscription for the payer to authorise',
        description:
          'A recurrence (BCB API Pix POST /rec): a fixed amount_minor or a variable amount above minimum_minor, due every week, month, quarter, half-year or year from start_date until end_date or cancellation. It starts pending_authorisation; once the payer authorises it at their PSP, each cycle is charged 5 days before it falls due and credited to party_id when paid. Errors: 400 invalid_request (a field; both or neither amount; a bad CPF/CNPJ; start_date sooner than 2 days), 400 invalid_amount (not above the cash-in fee), 403 forbidden (another party), 404 not_found (party), 503 provider_unavailable (live PSP).',
        params: EnvParams,
        body: CreateSubscriptionBody,
        response: respond(Subscription, {
          example: {
            ...SUBSCRIPTION_EXAMPLE,
            status: 'pending_authorisation',
            authorised_at: null,
            cycles_paid: 0,
            next_due_date: '2027-01-10',
          },
        }),
      },
    },
    async (request) => ({
      data: await actOnce(deps, request, () =>
        createSubscription(contextOf(deps, request), request.body, (fn) => request.write(fn)),
      ),
    }),
  );
}
