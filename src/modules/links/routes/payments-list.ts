import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE } from '../../payments/schemas.ts';
import { CheckoutListQuery, CheckoutPage, PAYMENT_LINK_EXAMPLE } from '../schemas.ts';
import { listCheckoutPayments } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links/payments',
    {
      config: { auth: 'any', subaccount: true, errors: [] },
      schema: {
        tags: ['payment-links'],
        summary:
          'Checkout payments, newest first: data is {items, next_cursor}; search takes a CPF/CNPJ (any punctuation) or part of the payer name',
        description:
          'The payments made through payment links, newest first, found by payer document or name and filtered by status, party or link; page with next_cursor.',
        params: EnvParams,
        querystring: CheckoutListQuery,
        response: respond(CheckoutPage, {
          example: {
            items: [{ ...PAYMENT_EXAMPLE, payment_link_id: PAYMENT_LINK_EXAMPLE.id }],
            next_cursor: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await listCheckoutPayments(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
