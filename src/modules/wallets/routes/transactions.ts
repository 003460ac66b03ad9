import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { WalletTransactionsQuery } from '../schemas.ts';
import { listWalletTransactions } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/wallets/:id/transactions',
    {
      config: { auth: 'any', subaccount: true, record: 'wallet', errors: ['not_found'] },
      schema: {
        tags: ['wallets'],
        summary: "A wallet's payments (crypto sends from it, deposits into it), newest first",
        description: 'limit 1..200, default 50; cursor is the id of the last payment seen.',
        params: EnvIdParams,
        querystring: WalletTransactionsQuery,
        response: respond(Type.Array(Payment), {
          example: [
            {
              ...PAYMENT_EXAMPLE,
              kind: 'crypto_deposit',
              amount_minor: '50000000',
              currency: 'USDT',
              fee_minor: '0',
              description: null,
              provider_ref: null,
              pix_qr_code: null,
              pix_tx_id: null,
              pix_txid: null,
              from_address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
              to_address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
              network: 'polygon',
              metadata: {},
              idempotency_key: null,
              counterparty: null,
              wallet_id: '0194f410-8d9e-7f0a-9b1c-2d3e4f5a6b7c',
              expires_at: null,
            },
          ],
        }),
      },
    },
    async (request) => ({
      data: await listWalletTransactions(deps.db, contextOf(deps, request), {
        id: request.params.id,
        ...request.query,
      }),
    }),
  );
}
