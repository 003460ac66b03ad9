/** GET /subscriptions/{id}/cycles: each cycle's due date, amount, status and attempts, first to last. */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { addDays, advanceTo, monthly, sandboxToday } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('subscription cycles list', () => {
  it('shows a retried cycle paid on its second attempt and the next one scheduled', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const created = await ws.api.post(
      '/v1/sandbox/subscriptions',
      monthly(start, { retry_policy: 'three_in_seven_days', frequency: 'weekly' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;
    expect((await ws.api.get(`/v1/sandbox/subscriptions/${id}/cycles`)).json().data).toEqual([]);
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, { approve: true });
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/fail-payments`, { attempts: 1 });
    await advanceTo(world, ws, addDays(start, 2));

    const res = await ws.api.get(`/v1/sandbox/subscriptions/${id}/cycles`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject([
      {
        subscription_id: id,
        sequence: 1,
        due_date: start,
        amount_minor: '3500',
        status: 'paid',
        attempts: 2,
      },
      { sequence: 2, due_date: addDays(start, 7), status: 'scheduled', attempts: 0 },
    ]);
  });
});
