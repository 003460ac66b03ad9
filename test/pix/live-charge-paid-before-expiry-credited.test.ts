/**
 * A buyer pays a live charge at the PSP just before it expires; the PSP's notification (or our poll)
 * comes after expires_at. The expiry task had already marked the charge expired without asking the
 * PSP, and the PSP-confirmed PIX was then refused: the buyer's money sat at the PSP, never credited.
 */
import { afterAll, expect, it } from 'vitest';
import { expireDueCharges } from '../../src/modules/pix/charge-payment.ts';
import { pollLiveCharges } from '../../src/modules/pix/notifications/charge-poll.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

async function chargeExpiringIn60s(name: string) {
  const { ws, live: api } = await liveWorkspace(world, name);
  const created = await api.post('/v1/live/pix/charges', { amount_minor: '900', expires_in_seconds: 60 });
  expect(created.statusCode, created.body).toBe(200);
  return { ws, api, charge: created.json().data as { id: string; pix_txid: string; fee_minor: string } };
}

it('paid at the PSP before expiry, notified after it: credited, completed', async () => {
  const { ws, api, charge } = await chargeExpiringIn60s('Pago no limite');
  await psp.pay(charge.pix_txid, false);
  world.clock.advance(61_000);
  await expireDueCharges(world.deps);
  const pix = psp.cobs.get(charge.pix_txid)!.pix[0]!;
  const callback = await psp.callback({ pix: [pix] });
  expect(callback).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
  expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('completed');
  expect(await ws.balances('live')).toMatchObject({ available: String(900n - BigInt(charge.fee_minor)) });
});

it('paid at the PSP before expiry, never notified: the poll credits it', async () => {
  const { ws, api, charge } = await chargeExpiringIn60s('Pago sem aviso');
  await psp.pay(charge.pix_txid, false);
  world.clock.advance(61_000);
  await expireDueCharges(world.deps);
  await pollLiveCharges(world.deps);
  expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('completed');
  expect(await ws.balances('live')).toMatchObject({ available: String(900n - BigInt(charge.fee_minor)) });
});

it('not paid at the PSP: expired once the PSP says so, crediting nothing', async () => {
  const { ws, api, charge } = await chargeExpiringIn60s('Nao pago');
  world.clock.advance(61_000);
  await expireDueCharges(world.deps);
  await pollLiveCharges(world.deps);
  expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('expired');
  expect(await ws.balances('live')).toMatchObject({ available: '0' });
});
