import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../schemas.ts';
import { getPayment } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payments/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'payment' },
      schema: {
        tags: ['payments'],
        summary: 'A payment of this environment',
        params: EnvIdParams,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await getPayment(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
