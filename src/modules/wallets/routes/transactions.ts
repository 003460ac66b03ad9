import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { WalletTransactionsQuery } from '../schemas.ts';
import { listWalletTransactions } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/wallets/:id/transactions',
    {
      config: { auth: 'any', subaccount: true, record: 'wallet' },
      schema: {
        tags: ['wallets'],
        summary: "A wallet's payments (crypto sends from it, deposits into it), newest first",
        description: 'limit 1..200, default 50; cursor is the id of the last payment seen.',
        params: EnvIdParams,
        querystring: WalletTransactionsQuery,
        response: respond(Type.Array(Payment)),
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
