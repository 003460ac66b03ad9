import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import {
  Subscription,
  SubscriptionListQuery,
  type SubscriptionListRequest,
  type SubscriptionView,
} from '../schemas.ts';
import { listSubscriptions } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type ListSubscriptionsResponse = { data: SubscriptionView[] };
export type { SubscriptionListRequest };

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subscriptions',
    {
      config: { auth: 'any', errors: ['invalid_request', 'forbidden', 'not_found'] },
      schema: {
        tags: ['subscriptions'],
        summary: 'Pix Automático subscriptions, newest first; cursor is the id of the last one seen',
        description:
          'A party-scoped key sees its party’s only. Errors: 400 invalid_request (limit, cursor, status), 403 forbidden (another party), 404 not_found (party).',
        params: EnvParams,
        querystring: SubscriptionListQuery,
        response: respond(Type.Array(Subscription), { example: [SUBSCRIPTION_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listSubscriptions(deps.db, contextOf(deps, request), request.query) }),
  );
}
