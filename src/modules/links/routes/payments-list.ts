import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CheckoutListQuery, CheckoutPage } from '../schemas.ts';
import { listCheckoutPayments } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links/payments',
    {
      config: { auth: 'any', subaccount: true },
      schema: {
        tags: ['payment-links'],
        summary:
          'Checkout payments, newest first: data is {items, next_cursor}; search takes a CPF/CNPJ (any punctuation) or part of the payer name',
        params: EnvParams,
        querystring: CheckoutListQuery,
        response: respond(CheckoutPage),
      },
    },
    async (request) => ({
      data: await listCheckoutPayments(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
