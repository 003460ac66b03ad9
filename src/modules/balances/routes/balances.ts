import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { BALANCE_EXAMPLE, Balance, BalanceQuery } from '../schemas.ts';
import { listBalances } from '../service.ts';

/** GET /v1/{env}/balances and its alias GET /v1/{env}/account/balances (API.md Ledger). */
export default function route(app: App, deps: Deps) {
  for (const [url, summary] of [
    ['/v1/:env/balances', 'Balances of the workspace parties: one row per party, currency and kind'],
    ['/v1/:env/account/balances', 'Alias of GET /v1/{env}/balances'],
  ] as const) {
    app.get(
      url,
      {
        config: { auth: 'any', subaccount: true, errors: ['unsupported_currency'] },
        schema: {
          tags: ['ledger'],
          summary,
          description:
            'The balances of the workspace parties (a party-scoped key: its party only), one row per party, currency and kind: available (spendable), pending (awaiting settlement), locked (held for payouts in flight) and trading. Amounts are strings of minor units.',
          params: EnvParams,
          querystring: BalanceQuery,
          response: respond(Type.Array(Balance), { example: [BALANCE_EXAMPLE] }),
        },
      },
      async (request) => ({ data: await listBalances(deps.db, contextOf(deps, request), request.query) }),
    );
  }
}
