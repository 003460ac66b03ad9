/**
 * A transfer set aside only because its provider was away (503, a timeout) is not at fault: however
 * long the outage, it is looked at again within a minute of the provider answering, not hours later
 * on a backoff meant for an item that fails on its own.
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { AppError } from '../../src/platform/errors.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const SOURCE = 'pix-reconcile';
const world = await startWorld({ sandboxSettleMs: 10 * 60_000 });
afterAll(() => world.close());

it('a payout set aside through a long PSP outage settles a minute after the PSP is back', async () => {
  const sandbox = sandboxPsp(world.deps);
  let away = false;
  const psp: PixProvider = {
    name: 'sandbox-that-goes-away',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    sendPayout: (input) => sandbox.sendPayout(input),
    getStatus: async (id) => {
      if (away) throw new AppError('provider_unavailable', 'The PIX provider failed (503).');
      return sandbox.getStatus(id);
    },
  };
  useSandboxPix(world.deps, psp);
  const alice = await world.workspace('Alice', { settlementKey: true, fund: '10000' });
  const payout = await alice.payout('2000', { pix_key: '52998224725' });
  await runJobs(world.deps, ['pix.send']);
  // The poll job was lost (a restart); the transfer settles at the PSP, which then goes away.
  await world.db.query('UPDATE jobs SET done_at = now() WHERE subject_id = $1', [payout.id]);
  world.clock.advance(11 * 60_000);
  away = true;

  // Two hours of outage, the sweep looking each time the item is due.
  const outageEnds = world.clock.now().getTime() + 2 * 3600_000;
  for (;;) {
    await pixTransfers.reconcile(world.deps).catch(() => undefined);
    const { rows } = await world.db.query<{ retry_at: Date }>(
      'SELECT retry_at FROM set_aside_items WHERE source = $1 AND item_key = $2 AND resolved_at IS NULL',
      [SOURCE, payout.id],
    );
    expect(rows).toHaveLength(1);
    const due = rows[0]!.retry_at.getTime();
    if (due >= outageEnds) break;
    world.clock.advance(Math.max(1000, due - world.clock.now().getTime()));
  }
  world.clock.advance(outageEnds - world.clock.now().getTime());

  away = false;
  world.clock.advance(61_000);
  await pixTransfers.reconcile(world.deps);
  const status = (await alice.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status;
  expect(status).toBe('completed');
  expect(await alice.balances()).toMatchObject({ available: '7900', locked: '0' });
});
