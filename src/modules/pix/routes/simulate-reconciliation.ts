import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { Discrepancy, DiscrepancyBody } from '../reconciliation/schemas.ts';
import { simulateDiscrepancy } from '../reconciliation/simulate.ts';

/** Sandbox: the sandbox PSP's records differ from the books in one way, and the reconciliation finds it. */
export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/reconciliation/discrepancy',
    {
      config: { auth: 'workspace', sandboxOnly: true },
      schema: {
        tags: ['sandbox'],
        summary:
          "Make the sandbox PSP's records differ from the books, then reconcile the workspace's last 24 hours; answers the discrepancy and the run that found it",
        params: SandboxEnvParams,
        body: DiscrepancyBody,
        response: respond(Discrepancy),
      },
    },
    async (request) => ({
      data: await simulateDiscrepancy(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
