/**
 * The reconciliation sweep returns how many transfers it moved: the task runner runs a busy round
 * again at once, so a transfer only asked about again, still settling, must not count, or the sweep
 * would spin on it.
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { runJobs } from '../../src/worker.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 10 * 60_000 });
afterAll(() => world.close());

it('counts the payouts a round settles, and none still settling at the PSP', async () => {
  const alice = await world.workspace('Alice', { settlementKey: true, fund: '10000' });
  const payouts = [
    await alice.payout('2000', { pix_key: '52998224725' }),
    await alice.payout('3000', { pix_key: '52998224725' }),
  ];
  await runJobs(world.deps, ['pix.send']);
  // Their poll jobs were lost (a restart): only the sweep looks at them now.
  for (const payout of payouts) {
    await world.db.query('UPDATE jobs SET done_at = now() WHERE subject_id = $1', [payout.id]);
  }
  const statuses = async () =>
    Promise.all(
      payouts.map(async (p) => (await alice.api.get(`/v1/sandbox/payments/${p.id}`)).json().data.status),
    );

  world.clock.advance(6 * 60_000);
  expect(await pixTransfers.reconcile(world.deps)).toBe(0);
  expect(await statuses()).toEqual(['processing', 'processing']);

  world.clock.advance(5 * 60_000);
  expect(await pixTransfers.reconcile(world.deps)).toBe(2);
  expect(await statuses()).toEqual(['completed', 'completed']);
  expect(await pixTransfers.reconcile(world.deps)).toBe(0);
});
