import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { WALLET_EXAMPLE, Wallet } from '../schemas.ts';
import { getWallet } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/wallets/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'wallet', errors: ['not_found'] },
      schema: {
        tags: ['wallets'],
        summary: 'A wallet of this environment',
        description:
          'One wallet by its id, with its address and whether Lastro holds its key (watch_only false) and can send from it.',
        params: EnvIdParams,
        response: respond(Wallet, { example: WALLET_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getWallet(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
