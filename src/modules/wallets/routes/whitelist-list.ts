import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { WHITELIST_EXAMPLE, WhitelistEntry, WhitelistQuery } from '../schemas.ts';
import { listWhitelist } from '../whitelist.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/whitelist',
    {
      config: { auth: 'session', errors: [] },
      schema: {
        tags: ['wallets'],
        summary: 'The whitelisted crypto destinations of this environment, newest first',
        description:
          'The destinations API keys of this environment may send stablecoins to, newest first, filtered by network; page with limit and cursor. Dashboard session only.',
        params: EnvParams,
        querystring: WhitelistQuery,
        response: respond(Type.Array(WhitelistEntry), { example: [WHITELIST_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listWhitelist(deps.db, contextOf(deps, request), request.query) }),
  );
}
