import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment, PaymentListQuery } from '../schemas.ts';
import { listPayments } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payments',
    {
      config: { auth: 'any', subaccount: true, errors: [] },
      schema: {
        tags: ['payments'],
        summary: 'Payments of this environment, newest first; cursor is the id of the last payment seen',
        description:
          'Every payment of the environment, of every rail, newest first, filtered by status, kind or party. Page with limit and cursor (the id of the last payment of the page before).',
        params: EnvParams,
        querystring: PaymentListQuery,
        response: respond(Type.Array(Payment), { example: [PAYMENT_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listPayments(deps.db, contextOf(deps, request), request.query) }),
  );
}
