import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { createRfi } from '../kyc.ts';
import { RFI_ITEM_EXAMPLE, RfiCreateBody, RfiItem } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/kyc/:id/rfi',
    {
      config: { auth: 'workspace', record: 'kyc_case', errors: ['not_found', 'invalid_state'] },
      schema: {
        tags: ['kyc'],
        summary: 'Ask for more information on a KYC case; the case is in_review while any item is open',
        description: 'Emits kyc.rfi.created (and kyc.updated when the case moves to in_review).',
        params: EnvIdParams,
        body: RfiCreateBody,
        response: respond(RfiItem, { example: RFI_ITEM_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        createRfi(tx, contextOf(deps, request), { ...request.body, id: request.params.id }),
      ),
    }),
  );
}
