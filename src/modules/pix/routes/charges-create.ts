import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { createCharge } from '../charges.ts';
import { ChargeBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/charges',
    {
      config: { auth: 'any', subaccount: true },
      schema: {
        tags: ['pix'],
        summary:
          'Create a PIX charge (cash-in): a BR Code the payer pays; the net amount is credited when paid',
        params: EnvParams,
        body: ChargeBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await createCharge(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
