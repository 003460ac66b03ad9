import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { STATEMENT_LINE_EXAMPLE, StatementLine, StatementQuery } from '../schemas.ts';
import { statement } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/statement',
    {
      config: { auth: 'any', subaccount: true, errors: ['unsupported_currency'] },
      schema: {
        tags: ['ledger'],
        summary:
          'Every ledger line of the workspace parties, newest first; cursor is the id of the last line seen, from is inclusive and to exclusive on posted_at',
        description:
          'The ledger lines of the workspace parties (a party-scoped key: its party only), newest first, filtered by time, kind or party: each credit or debit of a balance, with what posted it. Page with limit and cursor (the id of the last line seen).',
        params: EnvParams,
        querystring: StatementQuery,
        response: respond(Type.Array(StatementLine), { example: [STATEMENT_LINE_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await statement(deps.db, contextOf(deps, request), request.query) }),
  );
}
