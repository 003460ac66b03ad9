import type { Static } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { DISPUTE_EXAMPLE, Dispute, SimulateCloseBody } from '../schemas.ts';
import { simulateCloseDispute } from '../simulate.ts';

export type SimulateCloseRequest = Static<typeof SimulateCloseBody>;
export const SimulateCloseResponse = respond(Dispute, { example: DISPUTE_EXAMPLE });
export type SimulateCloseData = Static<(typeof SimulateCloseResponse)[200]>;

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/disputes/:id/close',
    {
      config: {
        errors: ['not_found', 'invalid_state', 'invalid_amount'],
        auth: 'any',
        record: 'dispute',
        sandboxOnly: true,
        moneyMoving: true,
      },
      schema: {
        tags: ['sandbox'],
        summary: 'The PSP decides a dispute: returned to the payer or rejected',
        description:
          'Sandbox only. returned: the hold goes back to available and the MED return flow takes the amount (a pix_med_return payment; what the party cannot cover it owes); rejected: the hold goes back to available. dispute.closed is sent. Closing again with the same outcome answers the dispute as it is; the other outcome is 422 invalid_state.',
        params: SandboxEnvIdParams,
        body: SimulateCloseBody,
        response: SimulateCloseResponse,
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        simulateCloseDispute(tx, contextOf(deps, request), { id: request.params.id, ...request.body }),
      ),
    }),
  );
}
