import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { listRfis } from '../kyc.ts';
import { RFI_ITEM_EXAMPLE, RfiItem } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/kyc/:id/rfi',
    {
      config: { auth: 'any', record: 'kyc_case', errors: ['not_found'] },
      schema: {
        tags: ['kyc'],
        summary: "Compliance's requests for more information on the case, newest first",
        description:
          'The requests for more information compliance made on a KYC case, newest first, open or answered; page with limit and cursor.',
        params: EnvIdParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(RfiItem), { example: [RFI_ITEM_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listRfis(deps.db, contextOf(deps, request), { ...request.query, id: request.params.id }),
    }),
  );
}
