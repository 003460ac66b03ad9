import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { WHITELIST_EXAMPLE, WhitelistEntry } from '../schemas.ts';
import { removeFromWhitelist } from '../whitelist.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/whitelist/:id',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['wallets'],
        summary: 'Remove a whitelisted destination; API keys can no longer send to it',
        description:
          'Removes a whitelisted destination and answers it as it was; API keys can no longer send there (403 destination_not_whitelisted). Dashboard session only.',
        params: EnvIdParams,
        response: respond(WhitelistEntry, { example: WHITELIST_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await deps.db.transaction((tx) =>
        removeFromWhitelist(tx, contextOf(deps, request), { id: request.params.id }),
      ),
    }),
  );
}
