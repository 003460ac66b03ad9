/**
 * `retry: { maxAttempts: undefined }` (an option passed through from a config
 * that does not set it) spread undefined over the default, `attempt >= undefined` was never true,
 * and a 503 was retried without end. An option left undefined takes its default.
 */
import { expect, it } from 'vitest';
import { Lastro, ServerError } from '../../packages/sdk/src/index.ts';

it('a retry option left undefined keeps its default: three attempts, then the 503 as a typed error', async () => {
  let calls = 0;
  const lastro = new Lastro({
    apiKey: 'lastro_test_sk_x',
    workspaceId: 'ws',
    retry: { maxAttempts: undefined, baseDelayMs: 1, maxDelayMs: 1 },
    fetch: async () => {
      calls++;
      // A bound of the test's own, so the defect fails the test instead of hanging it.
      if (calls > 10) return Response.json({ data: [] });
      return Response.json({ error: 'provider_unavailable', message: 'later' }, { status: 503 });
    },
  });
  await expect(lastro.get('/v1/{env}/balances')).rejects.toBeInstanceOf(ServerError);
  expect(calls).toBe(3);
});
