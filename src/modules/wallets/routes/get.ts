import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Wallet } from '../schemas.ts';
import { getWallet } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/wallets/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'wallet' },
      schema: {
        tags: ['wallets'],
        summary: 'A wallet of this environment',
        params: EnvIdParams,
        response: respond(Wallet),
      },
    },
    async (request) => ({
      data: await getWallet(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
