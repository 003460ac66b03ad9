/**
 * A live cycle's PIX returned by the PSP under MED (natureza MED_PIX_AUTOMATICO) is a MED return like
 * any other: the party the cycle credited is debited, once per devolução however often it is
 * notified, and the books verify.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveChargeReturns } from '../../src/modules/pix/notifications/charge-poll.ts';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { expectBooksVerified } from '../support/books.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { available, monthly } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });

/** A live subscription authorised, its first cycle sent and paid: the PIX's end-to-end id. */
async function paidCycle(api: Awaited<ReturnType<typeof liveWorkspace>>['live']) {
  const start = addDays(dayOf(world.clock.now()), 10);
  const id = (await api.post('/v1/live/subscriptions', monthly(start))).json().data.id as string;
  const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
  psp.automatic.answer(rec.idRec, 'APROVADA');
  await run();
  world.clock.advance(5 * DAY_MS);
  await run();
  const cobr = [...psp.automatic.cobrs.values()].find((c) => c.idRec === rec.idRec)!;
  world.clock.advance(5 * DAY_MS);
  const e2e = fakeEndToEndId();
  psp.automatic.settle(cobr.txid, 'CONCLUIDA', e2e);
  await run();
  return { id, e2e };
}

describe('a MED return of a paid live cycle', () => {
  it('debits the party the cycle credited, once per devolução, and the books verify', async () => {
    const { live: api } = await liveWorkspace(world, 'Devolve Ciclo Ltda');
    const { id, e2e } = await paidCycle(api);
    expect(await available(api, 'live')).toBe('3500');

    const med = await psp.medReturn(e2e, { valor: '20.00', natureza: 'MED_PIX_AUTOMATICO' });
    expect(med.callback?.status).toBe(200);
    expect(await available(api, 'live')).toBe('1500');
    // The PSP notifies the same devolução again: nothing more is taken.
    const again = await psp.callback({ pix: [psp.pixView(e2e)!] });
    expect(again.status).toBe(200);
    await run();
    expect(await available(api, 'live')).toBe('1500');

    const returns = (await api.get('/v1/live/payments?kind=pix_med_return')).json().data;
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ kind: 'pix_med_return', amount_minor: '2000', status: 'completed' });
    const cycle = (await api.get(`/v1/live/subscriptions/${id}`)).json().data;
    expect(cycle.cycles_paid).toBe(1);
    await expectBooksVerified(world.deps);
  });

  it('whose notification never came is applied by the returns poll, once', async () => {
    const { live: api } = await liveWorkspace(world, 'Devolve Sem Aviso Ltda');
    const { e2e } = await paidCycle(api);
    expect(await available(api, 'live')).toBe('3500');
    await psp.medReturn(e2e, { valor: '35.00', natureza: 'MED_FRAUDE', notify: false });
    for (let round = 0; round < 3; round++) await pollLiveChargeReturns(world.deps);
    expect(await available(api, 'live')).toBe('0');
    expect((await api.get('/v1/live/payments?kind=pix_med_return')).json().data).toHaveLength(1);
    await expectBooksVerified(world.deps);
  });
});
