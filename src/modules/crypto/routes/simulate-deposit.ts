import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { simulateDeposit } from '../deposits.ts';
import { SimulateDepositBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/crypto/deposit',
    {
      config: {
        auth: 'any',
        subaccount: true,
        moneyMoving: true,
        sandboxOnly: true,
        errors: ['not_found', 'invalid_state', 'unsupported_currency', 'provider_unavailable'],
      },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: stablecoins arrive at a wallet from outside and are credited to its party',
        description:
          "The sandbox chain makes the transfer; it is credited through the deposit watcher's own path (a completed crypto_deposit payment). A retry with the same Idempotency-Key makes no second transfer. 422 invalid_state for a watch-only wallet.",
        params: SandboxEnvParams,
        body: SimulateDepositBody,
        response: respond(Payment, {
          example: {
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
            tx_hash: '0x3f1c0a7e5b2d4c6e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e',
            metadata: {},
            idempotency_key: null,
            counterparty: null,
            wallet_id: '0194f410-8d9e-7f0a-9b1c-2d3e4f5a6b7c',
            expires_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await simulateDeposit(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
