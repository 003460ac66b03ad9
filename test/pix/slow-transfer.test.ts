import { afterAll, describe, expect, it } from 'vitest';
import { runJobs } from '../../src/worker.ts';
import { startWorld } from '../support/world.ts';
import { workspaceWithPayout } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 1000 });
afterAll(() => world.close());

const nextPollIn = async (paymentId: string) => {
  const { rows } = await world.db.query<{ run_at: Date; attempts: number }>(
    `SELECT run_at, attempts FROM jobs WHERE kind = 'pix.poll' AND done_at IS NULL AND payload->>'paymentId' = $1`,
    [paymentId],
  );
  return { ms: rows[0]!.run_at.getTime() - world.clock.now().getTime(), attempts: rows[0]!.attempts };
};

/** The delay was set a few real milliseconds before it is read. */
const expectNear = (ms: number, expected: number) => {
  expect(ms).toBeGreaterThan(expected - 500);
  expect(ms).toBeLessThanOrEqual(expected);
};

describe('a transfer the provider is slow to settle', () => {
  it('is polled less often as it ages, spends no attempts, and settles when the provider does', async () => {
    const { ws, payout } = await workspaceWithPayout(world);
    await runJobs(world.deps); // send → processing, poll queued
    // This transfer takes the PSP three hours.
    await world.db.query('UPDATE sandbox_pix_transfers SET settle_at = $2 WHERE payment_id = $1', [
      payout.id,
      new Date(world.clock.now().getTime() + 3 * 3600_000),
    ]);
    const poll = async () => {
      world.clock.advance(Math.max(0, (await nextPollIn(payout.id)).ms) + 1);
      await runJobs(world.deps);
    };
    await poll();
    expectNear((await nextPollIn(payout.id)).ms, 1000);

    world.clock.advance(15 * 60_000);
    await poll();
    expectNear((await nextPollIn(payout.id)).ms, 60_000);
    world.clock.advance(60 * 60_000);
    await poll();
    const late = await nextPollIn(payout.id);
    expectNear(late.ms, 300_000);
    expect(late.attempts).toBe(0);

    world.clock.advance(2 * 3600_000);
    await poll();
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('completed');
    expect(await ws.balances()).toMatchObject({ available: '7900', locked: '0' });
  });
});
