/**
 * Cancelling a live subscription withdraws its cycle's cobr at the PSP (PATCH /cobr/{txid} status
 * CANCELADA), not only the recurrence; a cobr the payer paid first, or paid anyway while the PSP could
 * not be told, is credited to the party like any paid cycle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { available, monthly } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });

/** A live subscription, authorised, whose first cycle's cobr is at the PSP (ATIVA). */
async function cycleSent(name: string) {
  const { live: api } = await liveWorkspace(world, name);
  const start = addDays(dayOf(world.clock.now()), 10);
  const id = (await api.post('/v1/live/subscriptions', monthly(start))).json().data.id as string;
  const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
  psp.automatic.answer(rec.idRec, 'APROVADA');
  await run();
  world.clock.advance(5 * DAY_MS);
  await run();
  const cobr = [...psp.automatic.cobrs.values()].find((c) => c.idRec === rec.idRec)!;
  expect(cobr.status).toBe('ATIVA');
  return { api, id, cobr };
}

describe('live cancellation and the cycle already sent', () => {
  it('withdraws the cycle’s cobr at the PSP', async () => {
    const { api, id, cobr } = await cycleSent('Retira Ltda');
    const cancelled = await api.post(`/v1/live/subscriptions/${id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled', cycles_paid: 0 });
    expect(psp.automatic.cobrs.get(cobr.txid)!.status).toBe('CANCELADA');
    const payments = (await api.get('/v1/live/payments?kind=pix_automatic')).json().data;
    expect(payments.map((p: { status: string }) => p.status)).toEqual(['expired']);
  });

  it('credits a cobr the payer paid before the cancellation reached it', async () => {
    const { api, id, cobr } = await cycleSent('Pago Antes Ltda');
    psp.automatic.settle(cobr.txid, 'CONCLUIDA', fakeEndToEndId());
    const cancelled = await api.post(`/v1/live/subscriptions/${id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled', cycles_paid: 1 });
    expect(await available(api, 'live')).toBe('3500');
  });

  it('credits a cobr paid after the cancellation while the PSP could not withdraw it', async () => {
    const { api, id, cobr } = await cycleSent('Pago Depois Ltda');
    psp.failNext({ method: 'PATCH', path: /^\/v2\/cobr\//, status: 503 });
    const cancelled = await api.post(`/v1/live/subscriptions/${id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe('cancelled');
    psp.automatic.settle(cobr.txid, 'CONCLUIDA', fakeEndToEndId());
    await run();
    await run();
    expect(await available(api, 'live')).toBe('3500');
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data).toMatchObject({
      status: 'cancelled',
      cycles_paid: 1,
    });
  });
});
