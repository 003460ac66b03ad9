import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Subaccount } from '../schemas.ts';
import { getSubaccount } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subaccounts/:id',
    {
      config: { auth: 'workspace', record: 'subaccount' },
      schema: {
        tags: ['subaccounts'],
        summary: 'A sub-account of this workspace',
        params: EnvIdParams,
        response: respond(Subaccount),
      },
    },
    async (request) => ({
      data: await getSubaccount(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
