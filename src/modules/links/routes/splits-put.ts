import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { SPLIT_EXAMPLE, Split, SplitsBody } from '../schemas.ts';
import { putSplits } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.put(
    '/v1/:env/payment-links/:id/splits',
    {
      config: {
        auth: 'any',
        subaccount: true,
        record: 'payment_link',
        errors: ['not_found', 'invalid_split'],
      },
      schema: {
        tags: ['payment-links'],
        summary:
          "Replace the link's whole split set (≤ 20, each 1..10000 bps, total ≤ 10000, distinct parties of the workspace; [] removes all). Charges already created keep the split they were created with",
        description:
          "Replaces the link's whole split set: at most 20 distinct parties of the workspace, each 1 to 10000 bps, 10000 in all at most (the rest goes to the link's party). Payments already made keep the split they were made with.",
        params: EnvIdParams,
        body: SplitsBody,
        response: respond(Type.Array(Split), { example: [SPLIT_EXAMPLE] }),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      const input = { ...request.body, id: request.params.id };
      return { data: await request.write((tx) => putSplits(tx, ctx, input)) };
    },
  );
}
