import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getCase } from '../kyc.ts';
import { KYC_CASE_EXAMPLE, KycCase } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/kyc/:id',
    {
      config: { auth: 'any', record: 'kyc_case', errors: ['not_found'] },
      schema: {
        tags: ['kyc'],
        summary: 'A KYC case of this environment',
        description:
          'One KYC case by its id: pending, in_review while a request for information is open, then approved or rejected with the reason.',
        params: EnvIdParams,
        response: respond(KycCase, { example: KYC_CASE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getCase(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
