import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Delivery, DeliveryQuery } from '../schemas.ts';
import { listDeliveries } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/deliveries',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'The webhook delivery log, newest first',
        params: EnvParams,
        querystring: DeliveryQuery,
        response: respond(Type.Array(Delivery)),
      },
    },
    async (request) => ({
      data: await listDeliveries(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
