/** POST /v1/sandbox/test-clock/advance: moves the workspace's sandbox clock ahead. */
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import {
  AdvanceClockBody,
  type AdvanceClockRequest,
  TEST_CLOCK_EXAMPLE,
  TestClock,
  type TestClockResponse,
} from '../schemas.ts';
import { advanceClock } from '../service.ts';

export type { AdvanceClockRequest, TestClockResponse };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/test-clock/advance',
    {
      config: { auth: 'workspace', sandboxOnly: true, errors: ['invalid_request', 'forbidden', 'not_found'] },
      schema: {
        tags: ['sandbox'],
        summary: "Sandbox only: move the workspace's sandbox clock ahead",
        description:
          "Moves the workspace's sandbox clock forward by `days` or `seconds` (exactly one), as a Stripe test clock does; it never moves back. Only what depends on the date in sandbox reads it: a due-date charge's amount due and expiry (and other schedules). Live never reads it: /v1/live/test-clock/advance answers 404 not_found. Each advance is audited (sandbox.test_clock_advanced). Errors: 400 invalid_request (neither or both of days and seconds, out of range, or the clock would run more than 36500 days ahead); 403 forbidden (a party-scoped key); 404 not_found (live).",
        params: SandboxEnvParams,
        body: AdvanceClockBody,
        response: respond(TestClock, { example: TEST_CLOCK_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => advanceClock(tx, contextOf(deps, request), request.body)),
    }),
  );
}
