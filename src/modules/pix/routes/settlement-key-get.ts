import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SETTLEMENT_KEY_EXAMPLE, SettlementKey } from '../schemas.ts';
import { getSettlementKey } from '../settlement-key.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/settlement-key',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['pix'],
        summary: 'The registered settlement key',
        description:
          'The PIX key of your own company that payouts made with an API key are paid to, in this environment; 404 when none is registered.',
        params: EnvParams,
        response: respond(SettlementKey, { example: SETTLEMENT_KEY_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getSettlementKey(deps.db, contextOf(deps, request)) }),
  );
}
