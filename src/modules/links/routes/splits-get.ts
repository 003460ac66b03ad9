import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Split } from '../schemas.ts';
import { getSplits } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links/:id/splits',
    {
      config: { auth: 'any', subaccount: true, record: 'payment_link' },
      schema: {
        tags: ['payment-links'],
        summary: "The link's split set in force now",
        params: EnvIdParams,
        response: respond(Type.Array(Split)),
      },
    },
    async (request) => ({ data: await getSplits(deps.db, contextOf(deps, request), request.params) }),
  );
}
