import type { Static } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { DISPUTE_EXAMPLE, Dispute } from '../schemas.ts';
import { getDispute } from '../service.ts';

export type DisputeGetRequest = Static<typeof EnvIdParams>;
export const DisputeGetResponse = respond(Dispute, { example: DISPUTE_EXAMPLE });
export type DisputeGetData = Static<(typeof DisputeGetResponse)[200]>;

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/disputes/:id',
    {
      config: { errors: ['not_found'], auth: 'any', record: 'dispute' },
      schema: {
        tags: ['disputes'],
        summary: 'A dispute of this environment',
        description:
          'One dispute: its status, the amount held, the deadline for a defense and the defense sent. Another party’s dispute (for a party-scoped key) or another workspace’s is 404.',
        params: EnvIdParams,
        response: DisputeGetResponse,
      },
    },
    async (request) => ({
      data: await getDispute(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
