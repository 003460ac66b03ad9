/**
 * A live cancel that credits a cobr the payer paid first answers the subscription with that cycle
 * paid; sent again with its Idempotency-Key it answers exactly that again, not the subscription as
 * it stood before the cobr was credited.
 */
import { afterAll, expect, it } from 'vitest';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { available, monthly } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });

it('a live cancel sent again with its key answers the first answer, the paid cycle in it', async () => {
  const { live: api } = await liveWorkspace(world, 'Reenvio Cancela Ltda');
  const start = addDays(dayOf(world.clock.now()), 10);
  const id = (await api.post('/v1/live/subscriptions', monthly(start))).json().data.id as string;
  const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
  psp.automatic.answer(rec.idRec, 'APROVADA');
  await run();
  world.clock.advance(5 * 86_400_000);
  await run();
  const cobr = [...psp.automatic.cobrs.values()].find((c) => c.idRec === rec.idRec)!;
  psp.automatic.settle(cobr.txid, 'CONCLUIDA', fakeEndToEndId());
  const key = { 'idempotency-key': `cancel-${id}` };
  const first = await api.post(`/v1/live/subscriptions/${id}/cancel`, {}, key);
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json().data).toMatchObject({ status: 'cancelled', cycles_paid: 1 });
  const again = await api.post(`/v1/live/subscriptions/${id}/cancel`, {}, key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(await available(api, 'live')).toBe('3500');
});
