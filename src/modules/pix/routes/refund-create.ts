import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { createRefund } from '../refunds.ts';
import { RefundBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/payments/:id/refund',
    {
      config: {
        auth: 'any',
        subaccount: true,
        record: 'payment',
        moneyMoving: true,
        groupCommit: true,
        errors: [
          'not_found',
          'invalid_amount',
          'invalid_state',
          'insufficient_balance',
          'provider_unavailable',
        ],
      },
      schema: {
        tags: ['pix'],
        summary: 'Refund all or part of a completed PIX cash-in (within 90 days, never more than received)',
        description:
          "Returns all or part of a completed PIX cash-in to its payer, within 90 days and never more than was received less earlier refunds. The amount is debited from the party's available balance at once; the refund is a payment of kind pix_refund whose related_payment_id is the charge.",
        params: EnvIdParams,
        body: RefundBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            id: '0194f3b0-2d4e-7f60-8a1b-2c3d4e5f6a7b',
            kind: 'pix_refund',
            status: 'processing',
            amount_minor: '5000',
            fee_minor: '0',
            description: 'Item devolvido',
            pix_qr_code: null,
            pix_tx_id: null,
            pix_txid: null,
            metadata: {},
            idempotency_key: null,
            related_payment_id: PAYMENT_EXAMPLE.id,
            expires_at: null,
            completed_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        createRefund(tx, contextOf(deps, request), { ...request.body, payment_id: request.params.id }),
      ),
    }),
  );
}
