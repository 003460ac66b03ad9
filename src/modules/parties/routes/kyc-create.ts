import type { Deps } from '../../../platform/context.ts';
import { BODY_OPTIONAL } from '../../../platform/openapi.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { openCase } from '../kyc.ts';
import { KYC_CASE_EXAMPLE, KycCase, KycCreateBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/kyc',
    {
      config: { auth: 'any', errors: ['not_found', 'conflict'] },
      schema: {
        tags: ['kyc'],
        summary: "Open a KYC case for a party (default: the key's party, else the workspace's own entity)",
        description:
          "The case starts pending and the party's kyc_status of this environment follows it; 409 conflict while the party has a case under way. Emits kyc.updated.",
        params: EnvParams,
        [BODY_OPTIONAL]: true,
        body: KycCreateBody,
        response: respond(KycCase, { example: KYC_CASE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => openCase(tx, contextOf(deps, request), request.body)),
    }),
  );
}
