import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SettlementKey, SettlementKeyBody } from '../schemas.ts';
import { putSettlementKey } from '../settlement-key.ts';

export default function route(app: App, deps: Deps) {
  app.put(
    '/v1/:env/settlement-key',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['pix'],
        summary: "Register the workspace's settlement PIX key: where API-key payouts of this environment go",
        params: EnvParams,
        body: SettlementKeyBody,
        response: respond(SettlementKey),
      },
    },
    async (request) => ({
      data: await request.write((tx) => putSettlementKey(tx, contextOf(deps, request), request.body)),
    }),
  );
}
