import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { DeliveryWithAttempts } from '../schemas.ts';
import { getDelivery } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/deliveries/:id',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'One webhook delivery with the history of its attempts',
        params: EnvIdParams,
        response: respond(DeliveryWithAttempts),
      },
    },
    async (request) => ({ data: await getDelivery(deps.db, contextOf(deps, request), request.params) }),
  );
}
