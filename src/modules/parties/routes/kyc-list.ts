import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { listCases } from '../kyc.ts';
import { KYC_CASE_EXAMPLE, KycCase, KycListQuery } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/kyc',
    {
      config: { auth: 'any', errors: [] },
      schema: {
        tags: ['kyc'],
        summary: 'KYC cases of this environment, newest first; party_id narrows to one party',
        description:
          "The KYC cases of this environment (a party-scoped key: its party's), newest first, filtered by party; page with limit and cursor.",
        params: EnvParams,
        querystring: KycListQuery,
        response: respond(Type.Array(KycCase), { example: [KYC_CASE_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listCases(deps.db, contextOf(deps, request), request.query) }),
  );
}
