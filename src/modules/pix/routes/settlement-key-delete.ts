import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SETTLEMENT_KEY_EXAMPLE, SettlementKey } from '../schemas.ts';
import { deleteSettlementKey } from '../settlement-key.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/settlement-key',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['pix'],
        summary: 'Remove the settlement key',
        description:
          'Removes the settlement key of this environment and answers it as it was; payouts with an API key are then refused (403 settlement_key_required) until a new one is registered.',
        params: EnvParams,
        response: respond(SettlementKey, { example: SETTLEMENT_KEY_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await deps.db.transaction((tx) => deleteSettlementKey(tx, contextOf(deps, request))),
    }),
  );
}
