import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams, SandboxEnvParams } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { SimulateMedReturnBody, SimulateUnassignedBody, UnassignedPix } from '../schemas.ts';
import { simulateMedReturn } from '../simulate.ts';
import { simulateUnassigned } from '../unassigned.ts';

const tags = ['sandbox'];

/** What the rail does unasked, in sandbox: a MED return on a paid charge, a PIX without a charge. */
export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/med-return',
    {
      config: { auth: 'any', subaccount: true, record: 'payment', moneyMoving: true, sandboxOnly: true },
      schema: {
        tags,
        summary:
          'The PSP returns all or part of this paid PIX charge to the payer under MED; the party is debited, what it cannot cover it owes',
        params: SandboxEnvIdParams,
        body: SimulateMedReturnBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        simulateMedReturn(tx, contextOf(deps, request), { id: request.params.id, ...request.body }),
      ),
    }),
  );
  app.post(
    '/v1/:env/simulate/pix/unassigned',
    {
      config: { auth: 'workspace', subaccount: true, moneyMoving: true, sandboxOnly: true },
      schema: {
        tags,
        summary: 'A payer sends a PIX to the sandbox key without a txid: it is held, unassigned',
        params: SandboxEnvParams,
        body: SimulateUnassignedBody,
        response: respond(UnassignedPix),
      },
    },
    async (request) => ({
      data: await request.write((tx) => simulateUnassigned(tx, contextOf(deps, request), request.body)),
    }),
  );
}
