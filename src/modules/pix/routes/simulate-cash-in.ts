import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { SimulateCashInBody } from '../schemas.ts';
import { simulateCashIn } from '../simulate.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/pix/cash-in',
    {
      config: { auth: 'any', subaccount: true, moneyMoving: true, groupCommit: true, sandboxOnly: true },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: a PIX payment received and settled at once, credited to the party',
        params: SandboxEnvParams,
        body: SimulateCashInBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await request.write((tx) => simulateCashIn(tx, contextOf(deps, request), request.body)),
    }),
  );
}
