import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { WhitelistEntry, WhitelistQuery } from '../schemas.ts';
import { listWhitelist } from '../whitelist.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/whitelist',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['wallets'],
        summary: 'The whitelisted crypto destinations of this environment, newest first',
        params: EnvParams,
        querystring: WhitelistQuery,
        response: respond(Type.Array(WhitelistEntry)),
      },
    },
    async (request) => ({ data: await listWhitelist(deps.db, contextOf(deps, request), request.query) }),
  );
}
