import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { answerRfi } from '../kyc.ts';
import { KycRfiParams, RFI_ITEM_EXAMPLE, RfiAnswerBody, RfiItem } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/kyc/:id/rfi/:rfi_id/answer',
    {
      config: { auth: 'any', record: 'kyc_case', errors: ['not_found', 'invalid_state'] },
      schema: {
        tags: ['kyc'],
        summary:
          'Answer an open RFI item (the answer is stored encrypted); the last answer returns the case to pending',
        description:
          'Answers one open request for information of a KYC case; when none stays open the case goes back to pending for compliance. Emits kyc.rfi.answered.',
        params: KycRfiParams,
        body: RfiAnswerBody,
        response: respond(RfiItem, {
          example: { ...RFI_ITEM_EXAMPLE, status: 'answered', answered_at: '2026-11-21T12:00:00.000Z' },
        }),
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
