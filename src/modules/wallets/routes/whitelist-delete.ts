import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { WhitelistEntry } from '../schemas.ts';
import { removeFromWhitelist } from '../whitelist.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/whitelist/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['wallets'],
        summary: 'Remove a whitelisted destination; API keys can no longer send to it',
        params: EnvIdParams,
        response: respond(WhitelistEntry),
      },
    },
    async (request) => ({
      data: await deps.db.transaction((tx) =>
        removeFromWhitelist(tx, contextOf(deps, request), { id: request.params.id }),
      ),
    }),
  );
}
