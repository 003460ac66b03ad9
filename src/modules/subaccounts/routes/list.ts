import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SUBACCOUNT_EXAMPLE, Subaccount } from '../schemas.ts';
import { listSubaccounts } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subaccounts',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['subaccounts'],
        summary: 'Sub-accounts of this workspace, newest first',
        description: 'The sub-accounts of this workspace, newest first; page with limit and cursor.',
        params: EnvParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(Subaccount), { example: [SUBACCOUNT_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listSubaccounts(deps.db, contextOf(deps, request), request.query) }),
  );
}
