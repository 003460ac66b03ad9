import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { SPLIT_EXAMPLE, Split } from '../schemas.ts';
import { getSplits } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links/:id/splits',
    {
      config: { auth: 'any', subaccount: true, record: 'payment_link', errors: ['not_found'] },
      schema: {
        tags: ['payment-links'],
        summary: "The link's split set in force now",
        description:
          "How what the link collects is divided now: each party's share in basis points of the net amount; [] when it all goes to the link's party.",
        params: EnvIdParams,
        response: respond(Type.Array(Split), { example: [SPLIT_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await getSplits(deps.db, contextOf(deps, request), request.params) }),
  );
}
