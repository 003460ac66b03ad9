import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { simulateDeposit } from '../deposits.ts';
import { SimulateDepositBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/crypto/deposit',
    {
      config: { auth: 'any', subaccount: true, moneyMoving: true, sandboxOnly: true },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: stablecoins arrive at a wallet from outside and are credited to its party',
        description:
          "The sandbox chain makes the transfer; it is credited through the deposit watcher's own path (a completed crypto_deposit payment). A retry with the same Idempotency-Key makes no second transfer. 422 invalid_state for a watch-only wallet.",
        params: SandboxEnvParams,
        body: SimulateDepositBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await simulateDeposit(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
