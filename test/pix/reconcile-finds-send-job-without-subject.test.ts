/**
 * Reconciliation finds a payout's parked send job by jobs.subject_id, but
 * a job inserted without that column (by a process still running the code from before migration
 * 0007, during a rolling deploy) had it NULL, so its payout stayed `created` with amount + fee locked
 * for ever. The database now fills subject_id from the payload's paymentId when an insert omits it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: 60_000 });
});
afterAll(() => ctx.close());

it('a payout whose parked send job has no subject_id is still failed and refunded', async () => {
  const ws = await pixWorkspace(ctx);
  await ws.setSettlementKey();
  await ws.cashIn('10000');
  const payout = (
    await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '2000', pix_key: '52998224725' })
  ).json().data;
  // The send job as an old process writes it: kind and payload only, then parked after its attempts.
  await ctx.db.query('DELETE FROM jobs WHERE subject_id = $1', [payout.id]);
  const at = ctx.clock.now();
  await ctx.db.query(
    `INSERT INTO jobs (id, kind, payload, run_at, done_at, failed_at, attempts)
     VALUES (gen_random_uuid(), 'pix.send', $1, $2, $2, $2, 25)`,
    [JSON.stringify({ paymentId: payout.id, workspaceId: ws.owner.workspaceId, environment: 'sandbox' }), at],
  );
  ctx.clock.advance(3600_000);
  await pixTransfers.reconcile(ctx.deps);

  const after = (await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data;
  expect(after.status).toBe('failed');
  expect(await ws.balances()).toMatchObject({ available: '10000', locked: '0' });
});
