import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { Discrepancy, DiscrepancyBody, RUN_DETAIL_EXAMPLE } from '../reconciliation/schemas.ts';
import { simulateDiscrepancy } from '../reconciliation/simulate.ts';

/** Sandbox: the sandbox PSP's records differ from the books in one way, and the reconciliation finds it. */
export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/reconciliation/discrepancy',
    {
      config: { auth: 'workspace', sandboxOnly: true, errors: ['not_found', 'invalid_state'] },
      schema: {
        tags: ['sandbox'],
        summary:
          "Make the sandbox PSP's records differ from the books, then reconcile the workspace's last 24 hours; answers the discrepancy and the run that found it",
        description:
          "Sandbox only: makes the sandbox PSP's records differ from the books in the way asked, then reconciles the workspace's last 24 hours at once, so you can see a finding as the daily run would report it. 422 invalid_state when there is no paid charge or settled payout to alter.",
        params: SandboxEnvParams,
        body: DiscrepancyBody,
        response: respond(Discrepancy, {
          example: {
            kind: 'amount_mismatch',
            payment_id: '0194f3a2-7c1e-7b3a-9d2f-4e5a6b7c8d90',
            end_to_end_id: 'E12345678202611241500abcdef12345',
            run: { ...RUN_DETAIL_EXAMPLE, environment: 'sandbox', trigger: 'on_demand' },
          },
        }),
      },
    },
    async (request) => ({
      data: await simulateDiscrepancy(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
