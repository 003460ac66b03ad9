/**
 * Sandbox reconciliation against the sandbox PSP's own records: clean activity agrees; each simulated
 * discrepancy is found, for the caller's workspace only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { previousLocalDay, reconcileYesterday } from '../../src/modules/pix/reconciliation/daily.ts';
import { findingsInRange } from '../../src/modules/pix/reconciliation/repo.ts';
import { reconcile } from '../../src/modules/pix/reconciliation/service.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

const ws = await world.workspace('Sandbox reconciled', { settlementKey: true });
const simulate = (kind: string) => ws.api.post('/v1/sandbox/simulate/reconciliation/discrepancy', { kind });

async function paidCharge(amount: string) {
  const charge = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: amount })).json().data;
  const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
  expect(paid.statusCode, paid.body).toBe(200);
  return paid.json().data;
}

describe('sandbox reconciliation', () => {
  it('agrees after a paid charge and a settled payout', async () => {
    await paidCharge('10000');
    const payout = await ws.payout('2500');
    await world.drainJobs();
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('completed');
    const now = Date.now();
    const report = await reconcile(world.deps, {
      environment: 'sandbox',
      from: new Date(now - 60_000),
      to: new Date(now + 60_000),
      trigger: 'cli',
    });
    expect(report.findings).toEqual([]);
    expect(report.pspPix).toBe(1);
    expect(report.transfers).toBe(1);
  });

  it('finds a PIX the sandbox PSP received and the books did not', async () => {
    const res = await simulate('missing_pix');
    expect(res.statusCode, res.body).toBe(200);
    const { end_to_end_id, run } = res.json().data;
    expect(run).toMatchObject({ status: 'discrepancies', trigger: 'on_demand', findings_count: 1 });
    expect(run.findings).toEqual([
      expect.objectContaining({ kind: 'missing_pix', end_to_end_id, found_minor: '1000' }),
    ]);
    const other = await world.workspace('Sandbox other');
    expect((await other.api.get('/v1/sandbox/reconciliation/runs')).json().data).toEqual([]);
    expect((await other.api.get(`/v1/sandbox/reconciliation/runs/${run.id}`)).statusCode).toBe(404);
    const detail = (await ws.api.get(`/v1/sandbox/reconciliation/runs/${run.id}`)).json().data;
    expect(detail.findings).toHaveLength(1);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const csv = await ws.api.get(`/v1/sandbox/reconciliation/findings.csv?from=${from}&to=${to}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['x-time-zone']).toBe('America/Sao_Paulo');
    const [header, line] = csv.body.split('\r\n');
    expect(header).toBe(
      'run_id,window_from,window_to,kind,end_to_end_id,payment_id,expected_minor,found_minor,expected_status,found_status,detail',
    );
    expect(line).toContain(`${run.id},`);
    expect(line).toContain(`,missing_pix,${end_to_end_id},,,1000,,received,`);
    expect(line).toMatch(/-03:00,/);
    const empty = await other.api.get(`/v1/sandbox/reconciliation/findings.csv?from=${from}&to=${to}`);
    expect(empty.body.split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('finds an amount that differs and a payout in another state', async () => {
    const charge = await paidCharge('700');
    const amount = (await simulate('amount_mismatch')).json().data;
    expect(amount).toMatchObject({ kind: 'amount_mismatch', payment_id: charge.id });
    expect(amount.run.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'amount_mismatch',
          payment_id: charge.id,
          expected_minor: '700',
          found_minor: '701',
        }),
      ]),
    );
    const status = (await simulate('status_mismatch')).json().data;
    expect(status.run.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'status_mismatch',
          payment_id: status.payment_id,
          expected_status: 'completed',
          found_status: 'failed',
        }),
      ]),
    );
  });

  it('the findings CSV pages through every finding once, in order', async () => {
    const from = new Date(Date.now() - 2 * 86_400_000);
    const to = new Date(Date.now() + 86_400_000);
    const csv = await ws.api.get(
      `/v1/sandbox/reconciliation/findings.csv?from=${from.toISOString()}&to=${to.toISOString()}`,
    );
    const lines = csv.body.split('\r\n').filter(Boolean).slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    // The file is read a page at a time: pages of one finding must give the same rows in the same order.
    const scope = { workspaceId: ws.owner.workspaceId, environment: 'sandbox' as const };
    const seen: string[] = [];
    let after: { runId: string; id: string } | undefined;
    for (let i = 0; i < 100; i++) {
      const [row] = await findingsInRange(world.db, scope, { from, to, after, limit: 1 });
      if (!row) break;
      seen.push(row.run_id);
      after = { runId: row.run_id, id: row.id };
    }
    expect(seen).toEqual(lines.map((line) => line.split(',')[0]));
  });

  it('answers 422 when there is nothing to differ from, and 404 on live', async () => {
    const fresh = await world.workspace('Sandbox fresh');
    const res = await fresh.api.post('/v1/sandbox/simulate/reconciliation/discrepancy', {
      kind: 'status_mismatch',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    const live = await fresh.session.post('/v1/live/simulate/reconciliation/discrepancy', {
      kind: 'missing_pix',
    });
    expect(live.statusCode).toBe(404);
  });

  it('the daily task reconciles yesterday once', async () => {
    // The daily run waits an hour past São Paulo's midnight: a suite run between 00:00 and 01:00
    // there moves its clock past that hour (yesterday stays the same day).
    const settledAt = previousLocalDay(world.clock.now()).to.getTime() + 61 * 60_000;
    world.clock.advance(Math.max(0, settledAt - world.clock.now().getTime()));
    const first = await reconcileYesterday(world.deps);
    expect(first).toBeGreaterThan(0);
    expect(await reconcileYesterday(world.deps)).toBe(0);
    const { rows } = await world.db.query<{ trigger: string }>(
      "SELECT trigger FROM reconciliation_runs WHERE trigger = 'daily' AND environment = 'sandbox'",
    );
    expect(rows).toHaveLength(1);
  });

  it('two workers reconciling the same day store one run of it per workspace', async () => {
    world.clock.advance(24 * 3600_000);
    await paidCharge('1500');
    world.clock.advance(24 * 3600_000);
    await Promise.all([reconcileYesterday(world.deps), reconcileYesterday(world.deps)]);
    // Each day with activity once: the day of the earlier tests (caught up) and the charge's day.
    const { rows } = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reconciliation_runs
        WHERE trigger = 'daily' AND environment = 'sandbox' AND workspace_id = $1 GROUP BY window_from`,
      [ws.owner.workspaceId],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    const runs = (await ws.api.get('/v1/sandbox/reconciliation/runs')).json().data;
    expect(runs.filter((run: { trigger: string }) => run.trigger === 'daily')).toHaveLength(rows.length);
  });

  it('a worker that was down reconciles every day it missed, oldest first, once', async () => {
    await reconcileYesterday(world.deps);
    world.clock.advance(3 * 24 * 3600_000);
    expect(await reconcileYesterday(world.deps)).toBe(3);
    expect(await reconcileYesterday(world.deps)).toBe(0);
    const { rows } = await world.db.query<{ from: Date }>(
      `SELECT window_from AS "from" FROM reconciliation_runs
        WHERE trigger = 'daily' AND environment = 'sandbox' AND workspace_id = $1 ORDER BY created_at`,
      ['00000000-0000-0000-0000-000000000000'],
    );
    const days = rows.slice(-3).map((row) => row.from.getTime());
    expect(days[1]! - days[0]!).toBe(24 * 3600_000);
    expect(days[2]! - days[1]!).toBe(24 * 3600_000);
  });
});
