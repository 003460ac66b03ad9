import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateWalletBody, WALLET_EXAMPLE, Wallet } from '../schemas.ts';
import { createWallet } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/wallets',
    {
      config: {
        auth: 'any',
        subaccount: true,
        errors: ['unsupported_network', 'invalid_address', 'not_found', 'conflict', 'provider_unavailable'],
      },
      schema: {
        tags: ['wallets'],
        summary:
          'Provision a wallet (a key pair from the key-management provider), or watch an address you hold',
        description:
          'An EVM wallet is registered on every EVM network at once (same address); the answer is the row of the asked network. 400 unsupported_network, 400 invalid_address, 403/404 for a party outside the caller, 409 conflict when the address is already a wallet of the workspace.',
        params: EnvParams,
        body: CreateWalletBody,
        response: respond(Wallet, { example: WALLET_EXAMPLE }),
      },
    },
    async (request) => ({
      // The KMS makes the key before the write: a re-send replays rather than make another.
      data: await actOnce(deps, request, () =>
        createWallet(contextOf(deps, request), request.body, (fn) => request.write(fn)),
      ),
    }),
  );
}
