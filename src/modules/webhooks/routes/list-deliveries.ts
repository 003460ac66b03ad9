import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { DELIVERY_EXAMPLE, Delivery, DeliveryQuery } from '../schemas.ts';
import { listDeliveries } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/deliveries',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['webhooks'],
        summary: 'The webhook delivery log, newest first',
        description:
          'Every delivery of an event to an endpoint, newest first, filtered by status, event type or endpoint; page with limit and cursor.',
        params: EnvParams,
        querystring: DeliveryQuery,
        response: respond(Type.Array(Delivery), { example: [DELIVERY_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listDeliveries(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
