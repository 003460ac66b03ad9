/**
 * A transfer the reconciliation sweep set aside may be settled by another path before its retry
 * (the PSP completes it, its poll job runs): the sweep no longer looks at it, so its record is
 * closed when its retry comes, and the open count (and its alert) falls back to zero.
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const SOURCE = 'pix-reconcile';
const world = await startWorld({ sandboxSettleMs: 10 * 60_000 });
afterAll(() => world.close());

const openItems = async () =>
  (
    await world.db.query<{ item_key: string }>(
      'SELECT item_key FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL',
      [SOURCE],
    )
  ).rows;

it('a payout set aside and then completed by the PSP leaves no open item once its retry is due', async () => {
  const sandbox = sandboxPsp(world.deps);
  let unreadable: string | undefined;
  const psp: PixProvider = {
    name: 'sandbox-with-one-bad-answer',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    sendPayout: (input) => sandbox.sendPayout(input),
    getStatus: async (id) => {
      if (id === unreadable) throw new SyntaxError('Unexpected token < in JSON at position 0');
      return sandbox.getStatus(id);
    },
  };
  useSandboxPix(world.deps, psp);
  const alice = await world.workspace('Alice', { settlementKey: true, fund: '10000' });
  const payout = await alice.payout('2000', { pix_key: '52998224725' });
  await runJobs(world.deps, ['pix.send']);
  await world.db.query('UPDATE jobs SET done_at = now() WHERE subject_id = $1', [payout.id]);
  world.clock.advance(6 * 60_000);
  unreadable = payout.id;
  await pixTransfers.reconcile(world.deps).catch(() => undefined);
  expect(await openItems()).toEqual([{ item_key: payout.id }]);

  // The PSP completes it on its own path before the sweep looks again.
  useSandboxPix(world.deps, sandbox);
  const completed = await alice.api.post(`/v1/sandbox/simulate/payments/${payout.id}/complete`);
  expect(completed.statusCode, completed.body).toBe(200);
  expect(await alice.balances()).toMatchObject({ available: '7900', locked: '0' });

  world.clock.advance(61_000);
  await pixTransfers.reconcile(world.deps);
  expect(await openItems()).toEqual([]);
});
