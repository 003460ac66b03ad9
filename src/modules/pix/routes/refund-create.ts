import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { createRefund } from '../refunds.ts';
import { RefundBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/payments/:id/refund',
    {
      config: { auth: 'any', subaccount: true, record: 'payment', moneyMoving: true, groupCommit: true },
      schema: {
        tags: ['pix'],
        summary: 'Refund all or part of a completed PIX cash-in (within 90 days, never more than received)',
        params: EnvIdParams,
        body: RefundBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        createRefund(tx, contextOf(deps, request), { ...request.body, payment_id: request.params.id }),
      ),
    }),
  );
}
