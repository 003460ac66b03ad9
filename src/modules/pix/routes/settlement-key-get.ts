import type { Deps } from '../../../platform/context.ts';
import { notFound } from '../../../platform/errors.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SettlementKey } from '../schemas.ts';
import { findSettlementKey, settlementKeyView } from '../settlement-key.ts';

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
    async (request) => {
      const key = await findSettlementKey(deps.db, request.caller!.workspaceId, request.caller!.environment);
      if (!key) throw notFound('Settlement key');
      return { data: settlementKeyView(key) };
    },
  );
}
