import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { WHITELIST_EXAMPLE, WhitelistBody, WhitelistEntry } from '../schemas.ts';
import { addToWhitelist } from '../whitelist.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/whitelist',
    {
      config: { auth: 'session', errors: ['unsupported_network', 'invalid_address', 'conflict'] },
      schema: {
        tags: ['wallets'],
        summary: 'Whitelist a crypto destination: where API keys of this environment may send',
        description:
          'The address is checked for its network (400 invalid_address) and stored normalised; an EVM address counts on this network only. 409 conflict when it is already there.',
        params: EnvParams,
        body: WhitelistBody,
        response: respond(WhitelistEntry, { example: WHITELIST_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => addToWhitelist(tx, contextOf(deps, request), request.body)),
    }),
  );
}
