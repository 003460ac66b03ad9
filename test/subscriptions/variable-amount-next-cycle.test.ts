/**
 * A variable-amount subscription charges its floor (valorMinimoRecebedor) unless the receiver sets
 * the next cycle's amount: POST /subscriptions/{id}/cycles/next. The amount is charged and credited
 * by that cycle only; one below the floor is 422 amount_out_of_range and changes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { addDays, advanceTo, monthly, sandboxToday } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());

const variable = (start: string) =>
  monthly(start, { amount_minor: undefined, minimum_minor: '2990', frequency: 'weekly' });

describe('the next cycle’s amount of a variable-amount subscription', () => {
  it('is charged and credited once by that cycle, the one after it charging the floor again', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const id = (await ws.api.post('/v1/sandbox/subscriptions', variable(start))).json().data.id as string;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, { approve: true });

    const set = await ws.api.post(`/v1/sandbox/subscriptions/${id}/cycles/next`, { amount_minor: '4990' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ minimum_minor: '2990', next_amount_minor: '4990' });

    await advanceTo(world, ws, addDays(start, 7));
    const cycles = (await ws.api.get(`/v1/sandbox/subscriptions/${id}/cycles`)).json().data;
    expect(cycles).toMatchObject([
      { sequence: 1, amount_minor: '4990', status: 'paid' },
      { sequence: 2, amount_minor: '2990', status: 'paid' },
    ]);
    expect(cycles[0].attempt_history).toEqual([
      { date: start, outcome: 'paid', rejection_code: null, rejection_reason: null },
    ]);
    expect(await ws.balances()).toMatchObject({ available: String(4990 + 2990) });
    const view = (await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data;
    expect(view.next_amount_minor).toBeNull();
  });

  it('below the floor is refused 422 amount_out_of_range and changes nothing', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const id = (await ws.api.post('/v1/sandbox/subscriptions', variable(start))).json().data.id as string;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, { approve: true });
    await ws.api.post(`/v1/sandbox/subscriptions/${id}/cycles/next`, { amount_minor: '3100' });
    const before = (await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data;

    const low = await ws.api.post(`/v1/sandbox/subscriptions/${id}/cycles/next`, { amount_minor: '2989' });
    expect(low.statusCode, low.body).toBe(422);
    expect(low.json()).toMatchObject({
      error: 'amount_out_of_range',
      details: [{ field: 'body.amount_minor', issue: expect.stringContaining('2990') }],
    });
    expect((await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data).toEqual(before);

    const fixed = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data.id;
    const refused = await ws.api.post(`/v1/sandbox/subscriptions/${fixed}/cycles/next`, {
      amount_minor: '4990',
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toBe('invalid_state');

    await advanceTo(world, ws, start);
    const cycles = (await ws.api.get(`/v1/sandbox/subscriptions/${id}/cycles`)).json().data;
    expect(cycles).toMatchObject([{ sequence: 1, amount_minor: '3100', status: 'paid' }]);
  });
});
