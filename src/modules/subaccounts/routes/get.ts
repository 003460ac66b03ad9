import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { SUBACCOUNT_EXAMPLE, Subaccount } from '../schemas.ts';
import { getSubaccount } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subaccounts/:id',
    {
      config: { auth: 'workspace', record: 'subaccount', errors: ['not_found'] },
      schema: {
        tags: ['subaccounts'],
        summary: 'A sub-account of this workspace',
        description: "One sub-account of this workspace by its id; another workspace's is 404.",
        params: EnvIdParams,
        response: respond(Subaccount, { example: SUBACCOUNT_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getSubaccount(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
