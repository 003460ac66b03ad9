import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../schemas.ts';
import { getPayment } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payments/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'payment', errors: ['not_found'] },
      schema: {
        tags: ['payments'],
        summary: 'A payment of this environment',
        description:
          "One payment of any rail (PIX charge, payout, refund, crypto send or deposit, conversion) by its id, as it is now. A party-scoped key sees only its party's payments; another's is 404.",
        params: EnvIdParams,
        response: respond(Payment, { example: PAYMENT_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getPayment(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
