import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SETTLEMENT_KEY_EXAMPLE, SettlementKey, SettlementKeyBody } from '../schemas.ts';
import { putSettlementKey } from '../settlement-key.ts';

export default function route(app: App, deps: Deps) {
  app.put(
    '/v1/:env/settlement-key',
    {
      config: { auth: 'session', errors: ['invalid_pix_key'] },
      schema: {
        tags: ['pix'],
        summary: "Register the workspace's settlement PIX key: where API-key payouts of this environment go",
        description:
          'Registers or replaces the settlement key of this environment: the PIX key every payout made with an API key is paid to, whatever the payout names. Dashboard session only, so a leaked API key cannot redirect payouts.',
        params: EnvParams,
        body: SettlementKeyBody,
        response: respond(SettlementKey, { example: SETTLEMENT_KEY_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => putSettlementKey(tx, contextOf(deps, request), request.body)),
    }),
  );
}
