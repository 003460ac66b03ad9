import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { createPayout } from '../payouts.ts';
import { PayoutBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/payouts',
    {
      config: {
        auth: 'any',
        subaccount: true,
        moneyMoving: true,
        groupCommit: true,
        interleave: true,
        errors: [
          'invalid_amount',
          'unsupported_currency',
          'pix_key_required',
          'invalid_pix_key',
          'settlement_key_required',
          'kyc_not_approved',
          'not_found',
          'insufficient_balance',
          'provider_unavailable',
        ],
      },
      schema: {
        tags: ['pix'],
        summary:
          'Start a PIX payout; amount + fee are debited at once. With an API key it pays the settlement key.',
        description:
          'Checks, in order: body (400), paying party (403 forbidden when blocked or outside a party-scoped key), settlement key (403 settlement_key_required), KYC in live (403 kyc_not_approved), balance (422 insufficient_balance), provider (503 provider_unavailable). Send Idempotency-Key: a retry never pays twice.',
        params: EnvParams,
        body: PayoutBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            kind: 'pix_cash_out',
            status: 'processing',
            amount_minor: '2500',
            fee_minor: '100',
            description: 'Saque 42',
            pix_qr_code: null,
            pix_tx_id: null,
            pix_txid: null,
            pix_key: 'tesouraria@acme.com.br',
            metadata: { withdrawal_id: '42' },
            idempotency_key: 'withdrawal-42',
            counterparty: { name: 'Acme Pagamentos Ltda', document: '************81' },
            expires_at: null,
            completed_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createPayout(tx, contextOf(deps, request), request.body)),
    }),
  );
}
