import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { executeQuote } from '../execute.ts';
import { ExecuteBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/rfq/execute',
    {
      config: {
        auth: 'any',
        subaccount: true,
        moneyMoving: true,
        errors: [
          'not_found',
          'quote_already_executed',
          'quote_expired',
          'insufficient_balance',
          'invalid_state',
        ],
      },
      schema: {
        tags: ['rfq'],
        summary: 'Execute an open quote: debit the base amount, credit the quote amount, atomically',
        description:
          'Answers the completed rfq_settlement payment. 404 not_found, 409 quote_already_executed, 422 quote_expired, 422 insufficient_balance (nothing moves, the quote stays open). Send Idempotency-Key: a retry replays the settlement.',
        params: EnvParams,
        body: ExecuteBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            id: '0194f401-7c8d-7e9f-8a0b-1c2d3e4f5a6c',
            kind: 'rfq_settlement',
            status: 'completed',
            amount_minor: '100000',
            fee_minor: '56',
            currency: 'BRL',
            description: null,
            provider_ref: null,
            pix_qr_code: null,
            pix_tx_id: null,
            pix_txid: null,
            metadata: {},
            idempotency_key: null,
            counterparty: null,
            source_currency: 'BRL',
            target_currency: 'USDT',
            exchange_rate: '0.1838235294',
            quote_id: '0194f400-7c8d-7e9f-8a0b-1c2d3e4f5a6b',
            expires_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => executeQuote(tx, contextOf(deps, request), request.body)),
    }),
  );
}
