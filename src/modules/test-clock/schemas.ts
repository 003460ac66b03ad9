import { type Static, Type } from 'typebox';

export const AdvanceClockBody = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Whole days to move ahead (24 hours each).' }),
    ),
    seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 315_360_000, description: 'Seconds to move ahead.' }),
    ),
  },
  {
    description: 'Exactly one of days or seconds. The clock only moves forward, as a Stripe test clock.',
    examples: [{ days: 30 }],
  },
);
export type AdvanceClockRequest = Static<typeof AdvanceClockBody>;

export const TestClock = Type.Object(
  {
    workspace_id: Type.String({ format: 'uuid', description: 'The workspace whose sandbox clock this is.' }),
    environment: Type.Literal('sandbox', { description: 'Always sandbox: live runs on real time.' }),
    now: Type.String({
      format: 'date-time',
      description: "The workspace's sandbox now: real now plus the offset.",
    }),
    real_now: Type.String({ format: 'date-time', description: 'Real now, as the service reads it.' }),
    offset_seconds: Type.Integer({
      minimum: 0,
      description: 'How far the sandbox clock runs ahead of real time, in seconds (every advance added up).',
    }),
  },
  { description: "The workspace's sandbox clock." },
);
export type TestClockResponse = Static<typeof TestClock>;

export const TEST_CLOCK_EXAMPLE: TestClockResponse = {
  workspace_id: '0f8b2b0e-4f8e-4c7d-9a51-2d3c1c1e7a10',
  environment: 'sandbox',
  now: '2026-12-26T03:00:00.000Z',
  real_now: '2026-11-26T03:00:00.000Z',
  offset_seconds: 2_592_000,
};
