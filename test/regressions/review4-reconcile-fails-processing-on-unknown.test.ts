/**
 * Review 4 finding (fixed): the reconcile sweep (src/flows/outbound.ts) now maps a provider `unknown`
 * to failed + refund for every payment it looks at, including one already `processing`. A payout is
 * only `processing` because the provider answered for it (recordOutcome), so the provider DID receive
 * it: an `unknown` from a status lookup then is a lookup glitch (replica lag, a PSP's partial outage),
 * not proof that no money left. Before this change the sweep re-sent it (pollProvider → sendToProvider,
 * idempotent on the payment id); now the party is refunded while the PSP may still pay the transfer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: 3_600_000 });
});
afterAll(() => ctx.close());

it('a processing payout is not failed when one status lookup answers unknown', async () => {
  const sandbox = sandboxPsp(ctx.deps);
  let glitch = false;
  const flaky: PixProvider = {
    name: 'flaky-sandbox',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    sendPayout: (input) => sandbox.sendPayout(input),
    getStatus: async (id) => (glitch ? { status: 'unknown' } : sandbox.getStatus(id)),
  };
  useSandboxPix(ctx.deps, flaky);

  const ws = await pixWorkspace(ctx);
  await ws.setSettlementKey();
  await ws.cashIn('10000');
  const payout = (await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '2000', pix_key: 'x' })).json()
    .data;
  await runJobs(ctx.deps, ['pix.send']);
  expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('processing');
  // The poll job was lost (a restart); the PSP still holds the transfer, processing.
  await ctx.db.query(`UPDATE jobs SET done_at = now() WHERE subject_id = $1`, [payout.id]);
  ctx.clock.advance(6 * 60_000);

  glitch = true;
  await pixTransfers.reconcile(ctx.deps);
  glitch = false;

  expect((await sandbox.getStatus(payout.id)).status).toBe('processing');
  expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('processing');
  expect(await ws.balances()).toMatchObject({ available: '7900', locked: '2100' });
});
