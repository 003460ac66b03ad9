import type { Static } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { submitDefense } from '../defense.ts';
import { DefenseBody, DISPUTE_EXAMPLE, Dispute } from '../schemas.ts';

export type DefenseRequest = Static<typeof DefenseBody>;
export const DefenseResponse = respond(Dispute, { example: DISPUTE_EXAMPLE });
export type DefenseData = Static<(typeof DefenseResponse)[200]>;

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/disputes/:id/defense',
    {
      config: {
        errors: ['not_found', 'invalid_state', 'provider_unavailable', 'conflict'],
        auth: 'any',
        record: 'dispute',
      },
      schema: {
        tags: ['disputes'],
        summary: 'Sends the defense of an open dispute to the PSP',
        description:
          'Sends a defense (text and references to evidence) before deadline_at; the dispute becomes under_review and dispute.updated is sent. In live the PSP receives it first: a PSP that cannot be reached answers 503 provider_unavailable and nothing is recorded. The same defense sent again answers the dispute as it is; another one, or one after the deadline, is 422 invalid_state.',
        params: EnvIdParams,
        body: DefenseBody,
        response: DefenseResponse,
      },
    },
    async (request) => ({
      // The PSP takes the defense before the write: a re-send replays, a reused key is 409 first.
      data: await actOnce(deps, request, () =>
        submitDefense(contextOf(deps, request), { id: request.params.id, ...request.body }, (fn) =>
          request.write(fn),
        ),
      ),
    }),
  );
}
