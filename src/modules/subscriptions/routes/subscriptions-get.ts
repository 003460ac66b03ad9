import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Subscription, type SubscriptionView } from '../schemas.ts';
import { getSubscription } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type GetSubscriptionResponse = { data: SubscriptionView };

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subscriptions/:id',
    {
      config: { auth: 'any', record: 'subscription', errors: ['not_found'] },
      schema: {
        tags: ['subscriptions'],
        summary: 'One Pix Automático subscription, with its next due date and the cycles paid',
        description: 'Errors: 404 not_found (no such subscription in the workspace, or another party’s).',
        params: EnvIdParams,
        response: respond(Subscription, { example: SUBSCRIPTION_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getSubscription(deps.db, contextOf(deps, request), request.params) }),
  );
}
