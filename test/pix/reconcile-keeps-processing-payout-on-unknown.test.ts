/**
 * A payout is only `processing` because the provider answered for it (recordOutcome), so the
 * provider did receive it: an `unknown` from a status lookup then is a lookup glitch (replica lag, a
 * PSP's partial outage), not proof that no money left. The reconcile sweep (src/flows/outbound/reconcile.ts)
 * once mapped `unknown` to failed + refund for every payment it looked at, this one included: the
 * party was refunded while the PSP could still pay the transfer out.
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 3_600_000 });
afterAll(() => world.close());

it('a processing payout is not failed when one status lookup answers unknown', async () => {
  const sandbox = sandboxPsp(world.deps);
  let glitch = false;
  const flaky: PixProvider = {
    name: 'flaky-sandbox',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    sendPayout: (input) => sandbox.sendPayout(input),
    getStatus: async (id) => (glitch ? { status: 'unknown' } : sandbox.getStatus(id)),
  };
  useSandboxPix(world.deps, flaky);

  const ws = await world.workspace({ settlementKey: true, fund: '10000' });
  const payout = await ws.payout('2000', { pix_key: '52998224725' });
  await runJobs(world.deps, ['pix.send']);
  expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('processing');
  // The poll job was lost (a restart); the PSP still holds the transfer, processing.
  await world.db.query(`UPDATE jobs SET done_at = now() WHERE subject_id = $1`, [payout.id]);
  world.clock.advance(6 * 60_000);

  glitch = true;
  await pixTransfers.reconcile(world.deps);
  glitch = false;

  expect((await sandbox.getStatus(payout.id)).status).toBe('processing');
  expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('processing');
  expect(await ws.balances()).toMatchObject({ available: '7900', locked: '2100' });
});
