/**
 * The sandbox PSP lists each paid cycle's PIX among what it received (as it lists a paid charge's),
 * and reconciliation names it as the cycle's payment: the run agrees, counting the cycles' PIX.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/modules/pix/reconciliation/service.ts';
import { addMonths } from '../../src/modules/subscriptions/schedule.ts';
import { startWorld } from '../support/world.ts';
import { addDays, advanceTo, monthly, sandboxToday } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());
const DAY_MS = 86_400_000;

describe('sandbox reconciliation after cycles are paid', () => {
  it('lists the cycles’ PIX at the sandbox PSP and agrees with the books', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const id = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data.id as string;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, { approve: true });
    await advanceTo(world, ws, addMonths(start, 1));
    expect((await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data.cycles_paid).toBe(2);

    const clock = new Date((await ws.api.get('/v1/sandbox/test-clock')).json().data.now);
    const report = await reconcile(world.deps, {
      environment: 'sandbox',
      from: new Date(Date.now() - DAY_MS),
      to: new Date(clock.getTime() + DAY_MS),
      trigger: 'on_demand',
      workspaceId: ws.owner.workspaceId,
    });
    expect(report.findings).toEqual([]);
    const stored = await ws.api.get(`/v1/sandbox/reconciliation/runs/${report.runId}`);
    expect(stored.json().data).toMatchObject({ status: 'agreed', psp_pix_count: 2, findings_count: 0 });
  });
});
