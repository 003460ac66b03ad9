import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Split, SplitsBody } from '../schemas.ts';
import { putSplits } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.put(
    '/v1/:env/payment-links/:id/splits',
    {
      config: { auth: 'any', subaccount: true, record: 'payment_link' },
      schema: {
        tags: ['payment-links'],
        summary:
          "Replace the link's whole split set (≤ 20, each 1..10000 bps, total ≤ 10000, distinct parties of the workspace; [] removes all). Charges already created keep the split they were created with",
        params: EnvIdParams,
        body: SplitsBody,
        response: respond(Type.Array(Split)),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      const input = { ...request.body, id: request.params.id };
      return { data: await request.write((tx) => putSplits(tx, ctx, input)) };
    },
  );
}
