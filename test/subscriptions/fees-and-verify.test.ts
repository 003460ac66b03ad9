/**
 * A cycle is charged the PIX cash-in fee, its net credited to the party and the fee to fee revenue;
 * paid, failed and cancelled cycles all leave books that `lastro verify` finds whole.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/subscriptions/schedule.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { startWorld } from '../support/world.ts';
import { addDays, advanceTo, monthly, sandboxToday } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('subscription cycles in the books', () => {
  it('takes the cash-in fee of each paid cycle, and verify finds paid, failed and cancelled cycles whole', async () => {
    const ws = await world.workspace();
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', 50, 100)`,
      [ws.owner.workspaceId],
    );
    const start = addDays(await sandboxToday(ws), 7);
    const sub = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/authorise`, { approve: true });
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/fail-payments`, { attempts: 1 });
    await advanceTo(world, ws, addMonths(start, 2));
    await advanceTo(world, ws, addDays(addMonths(start, 3), -3));
    expect((await ws.api.post(`/v1/sandbox/subscriptions/${sub.id}/cancel`, {})).statusCode).toBe(200);
    // 3500 less 50 + 1% (35): 3415 for each of the two cycles paid; the first failed.
    expect(await ws.balances()).toMatchObject({ available: '6830' });
    expect(await ws.feeRevenue()).toBe(170n);
    const payments = (await ws.api.get('/v1/sandbox/payments?kind=pix_automatic')).json().data;
    expect(payments.map((p: { status: string }) => p.status).sort()).toEqual([
      'completed',
      'completed',
      'expired',
      'failed',
    ]);
    expect(payments.every((p: { fee_minor: string }) => p.fee_minor === '85')).toBe(true);
    const report = await verifyBooks(world.db, 100);
    expect(report.checks.filter((check) => check.violations > 0)).toEqual([]);
  });
});
