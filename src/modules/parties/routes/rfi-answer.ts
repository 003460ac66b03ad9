import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { answerRfi } from '../kyc.ts';
import { KycRfiParams, RfiAnswerBody, RfiItem } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/kyc/:id/rfi/:rfi_id/answer',
    {
      config: { auth: 'any', record: 'kyc_case' },
      schema: {
        tags: ['kyc'],
        summary:
          'Answer an open RFI item (the answer is stored encrypted); the last answer returns the case to pending',
        params: KycRfiParams,
        body: RfiAnswerBody,
        response: respond(RfiItem),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        answerRfi(tx, contextOf(deps, request), {
          id: request.params.id,
          rfi_id: request.params.rfi_id,
          answer: request.body.answer,
        }),
      ),
    }),
  );
}
