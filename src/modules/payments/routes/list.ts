import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Payment, PaymentListQuery } from '../schemas.ts';
import { listPayments } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payments',
    {
      config: { auth: 'any', subaccount: true },
      schema: {
        tags: ['payments'],
        summary: 'Payments of this environment, newest first; cursor is the id of the last payment seen',
        params: EnvParams,
        querystring: PaymentListQuery,
        response: respond(Type.Array(Payment)),
      },
    },
    async (request) => ({ data: await listPayments(deps.db, contextOf(deps, request), request.query) }),
  );
}
