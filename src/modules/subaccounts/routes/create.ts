import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { SUBACCOUNT_EXAMPLE, Subaccount, SubaccountCreateBody } from '../schemas.ts';
import { createSubaccount } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/subaccounts',
    {
      config: { auth: 'workspace', errors: ['not_found', 'subaccount_depth_exceeded'] },
      schema: {
        tags: ['subaccounts'],
        summary: 'Create a sub-account: a child workspace with its own default entity party',
        description:
          'One level only: a sub-account asking answers 422 subaccount_depth_exceeded. Emits subaccount.created.',
        params: EnvParams,
        body: SubaccountCreateBody,
        response: respond(Subaccount, { example: SUBACCOUNT_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createSubaccount(tx, contextOf(deps, request), request.body)),
    }),
  );
}
