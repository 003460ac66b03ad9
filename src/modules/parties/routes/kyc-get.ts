import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getCase } from '../kyc.ts';
import { KycCase } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/kyc/:id',
    {
      config: { auth: 'any', record: 'kyc_case' },
      schema: {
        tags: ['kyc'],
        summary: 'A KYC case of this environment',
        params: EnvIdParams,
        response: respond(KycCase),
      },
    },
    async (request) => ({
      data: await getCase(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
