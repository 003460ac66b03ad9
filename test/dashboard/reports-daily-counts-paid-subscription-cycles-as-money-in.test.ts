/**
 * GET /v1/{env}/reports/daily counts a paid Pix Automático cycle as money received that day, as the
 * balance at the day's end already does: money in and the balance tell the same story.
 */
import { afterAll, expect, it } from 'vitest';
import { localDateOf } from '../../src/platform/time-zone.ts';
import { addDays, advanceTo, monthly, sandboxToday } from '../subscriptions/support.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a paid subscription cycle is money in on the day it was paid', async () => {
  const ws = await world.workspace();
  const start = addDays(await sandboxToday(ws), 7);
  const id = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data.id as string;
  await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, { approve: true });
  await advanceTo(world, ws, start);
  const payments = (await ws.api.get('/v1/sandbox/payments?kind=pix_automatic&limit=100')).json().data as {
    status: string;
    amount_minor: string;
    fee_minor: string;
    completed_at: string;
  }[];
  const paid = payments.filter((p) => p.status === 'completed');
  expect(paid).toHaveLength(1);
  const day = localDateOf(new Date(paid[0]!.completed_at), 'America/Sao_Paulo');

  const res = await ws.api.get(`/v1/sandbox/reports/daily?from=${day}&to=${day}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.days).toEqual([
    expect.objectContaining({ day, in_minor: '3500', out_minor: '0', fees_minor: paid[0]!.fee_minor }),
  ]);
});
