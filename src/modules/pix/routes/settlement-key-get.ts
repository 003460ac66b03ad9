import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SettlementKey } from '../schemas.ts';
import { getSettlementKey } from '../settlement-key.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/settlement-key',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['pix'],
        summary: 'The registered settlement key',
        params: EnvParams,
        response: respond(SettlementKey),
      },
    },
    async (request) => ({ data: await getSettlementKey(deps.db, contextOf(deps, request)) }),
  );
}
