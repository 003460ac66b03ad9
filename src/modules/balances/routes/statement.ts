import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { StatementLine, StatementQuery } from '../schemas.ts';
import { statement } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/statement',
    {
      config: { auth: 'any', subaccount: true },
      schema: {
        tags: ['ledger'],
        summary:
          'Every ledger line of the workspace parties, newest first; cursor is the id of the last line seen, from is inclusive and to exclusive on posted_at',
        params: EnvParams,
        querystring: StatementQuery,
        response: respond(Type.Array(StatementLine)),
      },
    },
    async (request) => ({ data: await statement(deps.db, contextOf(deps, request), request.query) }),
  );
}
