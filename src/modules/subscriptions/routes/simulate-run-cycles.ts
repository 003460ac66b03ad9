import { type Static, Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { runWorkspaceCycles } from '../sweep.ts';

export const RunCyclesResult = Type.Object(
  {
    steps: Type.Integer({
      description: 'Cycle steps taken: charges scheduled, payments attempted, subscriptions ended.',
    }),
  },
  { description: 'What the cycle task did for this workspace.' },
);
export type RunCyclesResponse = { data: Static<typeof RunCyclesResult> };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/subscriptions/run-cycles',
    {
      config: { auth: 'any', sandboxOnly: true, errors: [] },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: run the subscription cycle task now for this workspace, on its test clock',
        description:
          'The worker runs it every minute; after POST /v1/sandbox/test-clock/advance, call this to see at once every cycle whose day has come on the sandbox clock: charges scheduled 5 days before their due date, payments attempted on it, retries, subscriptions completed.',
        params: SandboxEnvParams,
        response: respond(RunCyclesResult, { example: { steps: 24 } }),
      },
    },
    async (request) => ({ data: await runWorkspaceCycles(deps, contextOf(deps, request).caller) }),
  );
}
