import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { WALLET_EXAMPLE, Wallet, WalletListQuery } from '../schemas.ts';
import { listWallets } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/wallets',
    {
      config: { auth: 'any', subaccount: true, errors: [] },
      schema: {
        tags: ['wallets'],
        summary: 'Wallets of this environment, newest first; cursor is the id of the last wallet seen',
        description:
          "The wallets of the workspace parties (a party-scoped key: its party's), newest first, filtered by party or network; page with limit and cursor.",
        params: EnvParams,
        querystring: WalletListQuery,
        response: respond(Type.Array(Wallet), { example: [WALLET_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listWallets(deps.db, contextOf(deps, request), request.query) }),
  );
}
