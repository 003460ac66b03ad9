/**
 * The SDK's retry loop once ignored the call's AbortSignal. A caller that aborted
 * (AbortSignal.timeout, a user leaving) waited out the whole backoff, up to a 30 s Retry-After,
 * and the request was attempted again after the abort. An aborted call stops at once.
 */
import { expect, it } from 'vitest';
import { Lastro, LastroConnectionError } from '../../packages/sdk/src/index.ts';

it('an abort during the wait for a retry ends the call without another attempt', async () => {
  const controller = new AbortController();
  let calls = 0;
  const lastro = new Lastro({
    apiKey: 'lastro_test_sk_x',
    workspaceId: 'ws',
    retry: { maxDelayMs: 2000 },
    fetch: async (request) => {
      calls++;
      // As the real fetch does: an aborted request is refused before it is sent.
      if (request.signal.aborted) throw request.signal.reason;
      setTimeout(() => controller.abort(new Error('caller gave up')), 50);
      return Response.json(
        { error: 'database_unavailable', message: 'later' },
        { status: 503, headers: { 'retry-after': '2' } },
      );
    },
  });
  const error = await lastro
    .get('/v1/{env}/balances', { signal: controller.signal } as never)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(LastroConnectionError);
  expect(((error as LastroConnectionError).cause as Error).message).toBe('caller gave up');
  expect(calls).toBe(1);
});
