/**
 * Reconciliation must not fail (and refund) a payout the provider may still receive.
 *
 * A handler that runs past HANDLER_TIMEOUT_MS "ends" by timeout while its provider call is still in
 * flight. Were its job parked after that 25th attempt, the reconcile sweep (src/flows/outbound/reconcile.ts)
 * would see a `created` payout with no live job, ask the provider, hear `unknown` (the request has
 * not landed yet), fail the payout with provider_unreachable and return amount + fee to available;
 * the late sendPayout would then land and the provider pay the transfer out: the party keeps its
 * money and the money also left (recordOutcome just finds the payment failed and returns).
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { MAX_JOB_ATTEMPTS } from '../../src/platform/jobs.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 60_000 });
afterAll(() => world.close());

it('a payout whose last send attempt is still in flight is not failed by reconciliation', async () => {
  const sandbox = sandboxPsp(world.deps);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let landed!: () => void;
  const sendLanded = new Promise<void>((resolve) => {
    landed = resolve;
  });
  // The sandbox PSP behind a slow network: the request reaches it only once the gate opens.
  const slow: PixProvider = {
    name: 'slow-sandbox',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    getStatus: (id) => sandbox.getStatus(id),
    async sendPayout(input) {
      await gate;
      const result = await sandbox.sendPayout(input);
      landed();
      return result;
    },
  };
  useSandboxPix(world.deps, slow);

  const ws = await world.workspace({ settlementKey: true, fund: '10000' });
  const payout = await ws.payout('2000', { pix_key: '52998224725' });
  // 24 attempts already failed (provider 5xx) over the last ~1 h 40 min; this is the last one.
  await world.db.query(`UPDATE jobs SET attempts = $2 WHERE payload->>'paymentId' = $1`, [
    payout.id,
    MAX_JOB_ATTEMPTS - 1,
  ]);
  world.clock.advance(2 * 3600_000);

  // The 25th attempt times out while its request is on the wire. A timeout never parks a job (the
  // call may still land), so the job stays live and the sweep leaves the payout to it.
  await runJobs(world.deps, ['pix.send'], { handlerTimeoutMs: 50 });
  const job = await world.db.query<{ failed_at: Date | null; done_at: Date | null }>(
    `SELECT failed_at, done_at FROM jobs WHERE payload->>'paymentId' = $1`,
    [payout.id],
  );
  expect(job.rows[0]).toEqual({ failed_at: null, done_at: null });

  // The reconciliation sweep runs (every minute) before the request lands.
  await pixTransfers.reconcile(world.deps);

  // The request lands at the PSP, which now holds (and will pay) the transfer.
  release();
  await sendLanded;
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect((await sandbox.getStatus(payout.id)).status).not.toBe('unknown');

  // The ledger must still hold the money for a transfer the provider has: not failed and refunded.
  const after = (await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data;
  expect(after.status).not.toBe('failed');
  expect(await ws.balances()).toMatchObject({ available: '7900', locked: '2100' });
});
