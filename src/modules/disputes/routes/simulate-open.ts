import type { Static } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { DISPUTE_EXAMPLE, Dispute, SimulateDisputeBody } from '../schemas.ts';
import { simulateOpenDispute } from '../simulate.ts';

export type SimulateDisputeRequest = Static<typeof SimulateDisputeBody>;
export const SimulateDisputeResponse = respond(Dispute, { example: DISPUTE_EXAMPLE });
export type SimulateDisputeData = Static<(typeof SimulateDisputeResponse)[200]>;

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/dispute',
    {
      config: {
        errors: ['not_found', 'invalid_state', 'invalid_amount', 'conflict'],
        auth: 'any',
        subaccount: true,
        record: 'payment',
        sandboxOnly: true,
      },
      schema: {
        tags: ['sandbox'],
        summary:
          "The payer's bank opens a MED infraction on this paid PIX cash-in: a dispute holds the amount",
        description:
          'Sandbox only. Opens a dispute on a completed pix_cash_in, as the PSP’s infraction notice would: the amount (all of the cash-in unless amount_minor) moves from the party’s available BRL to locked, as far as available goes (held_minor), and dispute.opened is sent. A payment with an open dispute is 409 conflict.',
        params: SandboxEnvIdParams,
        body: SimulateDisputeBody,
        response: SimulateDisputeResponse,
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        simulateOpenDispute(tx, contextOf(deps, request), { id: request.params.id, ...request.body }),
      ),
    }),
  );
}
