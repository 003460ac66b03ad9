/** GET /v1/sandbox/test-clock: the workspace's sandbox now. */
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { TEST_CLOCK_EXAMPLE, TestClock, type TestClockResponse } from '../schemas.ts';
import { getClock } from '../service.ts';

export type { TestClockResponse };

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/test-clock',
    {
      config: { auth: 'any', sandboxOnly: true, errors: ['not_found'] },
      schema: {
        tags: ['sandbox'],
        summary: "Sandbox only: the workspace's sandbox now and how far it runs ahead",
        description:
          "The workspace's sandbox clock: `now` is real now plus `offset_seconds` (0 until the first advance). Errors: 404 not_found (live: live runs on real time).",
        params: SandboxEnvParams,
        response: respond(TestClock, { example: TEST_CLOCK_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getClock(deps.db, contextOf(deps, request)) }),
  );
}
