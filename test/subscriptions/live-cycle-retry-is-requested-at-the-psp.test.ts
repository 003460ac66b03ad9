/**
 * Pix Automático retries are the receiver's to ask for: when the payer's PSP rejects a cycle's
 * attempt, the cobr stays ATIVA and nothing more happens unless we POST
 * /cobr/{txid}/retentativa/{data} (API Pix, tag CobR) on a future day the recurrence's
 * PERMITE_3R_7D allows. Each retry is asked once, even when the task runs twice or the PSP was away
 * when it was first asked; a paid retry credits the cycle once; with no retry left the cycle fails.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { available, monthly, subscriptionEvents } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });
const retriesAsked = (txid: string) =>
  psp.calls
    .filter((c) => c.method === 'POST' && c.path.startsWith(`/v2/cobr/${txid}/retentativa/`))
    .map((c) => c.path.split('/').at(-1));

/** A live subscription with retries, authorised, its first cobr sent, on its due date: the cobr. */
async function dueCycle(name: string) {
  const { live: api } = await liveWorkspace(world, name);
  const start = addDays(dayOf(world.clock.now()), 10);
  const created = await api.post(
    '/v1/live/subscriptions',
    monthly(start, { retry_policy: 'three_in_seven_days' }),
  );
  const id = created.json().data.id as string;
  const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
  psp.automatic.answer(rec.idRec, 'APROVADA');
  await run();
  world.clock.advance(5 * DAY_MS);
  await run();
  const cobr = [...psp.automatic.cobrs.values()].find((c) => c.idRec === rec.idRec)!;
  world.clock.advance(5 * DAY_MS);
  return { api, id, cobr, due: start };
}

describe('a live cycle whose attempt the payer’s PSP rejects', () => {
  it('asks the PSP for a retry once, and the paid retry credits the cycle once', async () => {
    const { api, id, cobr, due } = await dueCycle('Retentativa Ltda');
    psp.automatic.rejectAttempt(cobr.txid);
    // The PSP is away when the retry is asked: the cycle keeps its retry and asks again, once.
    psp.failNext({ method: 'POST', path: /\/retentativa\//, status: 503 });
    await expect(run()).rejects.toThrow();
    await run();
    await run();
    expect(retriesAsked(cobr.txid)).toEqual([addDays(due, 2), addDays(due, 2)]);
    expect(cobr.tentativas.map((t) => [t.dataLiquidacao, t.status])).toEqual([
      [due, 'REJEITADA'],
      [addDays(due, 2), 'SOLICITADA'],
    ]);
    expect(await available(api, 'live')).toBe('0');

    world.clock.advance(2 * DAY_MS);
    psp.automatic.settle(cobr.txid, 'CONCLUIDA', fakeEndToEndId());
    await run();
    await run();
    expect(await available(api, 'live')).toBe('3500');
    expect(retriesAsked(cobr.txid)).toHaveLength(2);
    expect(await subscriptionEvents(api, id, 'live')).toEqual([
      'subscription.created',
      'subscription.authorised',
      'subscription.cycle_scheduled',
      'subscription.cycle_retrying',
      'subscription.cycle_paid',
    ]);
  });

  it('fails the cycle, with its event, once the 3 retries in 7 days are spent', async () => {
    const { api, id, cobr, due } = await dueCycle('Sem Saldo Ltda');
    for (const offset of [2, 4, 6]) {
      psp.automatic.rejectAttempt(cobr.txid);
      await run();
      await run();
      expect(retriesAsked(cobr.txid).at(-1)).toBe(addDays(due, offset));
      world.clock.advance(2 * DAY_MS);
    }
    psp.automatic.rejectAttempt(cobr.txid);
    await run();
    await run();
    expect(retriesAsked(cobr.txid)).toEqual([addDays(due, 2), addDays(due, 4), addDays(due, 6)]);
    const payments = (await api.get('/v1/live/payments?kind=pix_automatic')).json().data;
    expect(payments).toHaveLength(1);
    expect(payments[0].status).toBe('failed');
    expect(await available(api, 'live')).toBe('0');
    const events = await subscriptionEvents(api, id, 'live');
    expect(events.filter((e) => e === 'subscription.cycle_retrying')).toHaveLength(3);
    expect(events.at(-1)).toBe('subscription.cycle_failed');
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data.status).toBe('active');
  });
});
