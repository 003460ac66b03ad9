/**
 * The PSP's Pix Automático notifications (API Pix callbacks of PUT /webhookrec and /webhookcobr:
 * {"recs": [...]} to {webhookUrl}/rec, {"cobsr": [...]} to {webhookUrl}/cobr) are applied on
 * arrival: an approval, a cycle paid, a payer's cancellation, a rejected attempt with its rejeicao.
 * The same notification twice, or the poll after it, changes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  automaticWebhookRegistration,
  runSubscriptionCycles,
} from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import type { Client } from '../support/world.ts';
import { available, monthly, subscriptionEvents } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
await automaticWebhookRegistration.run(world.deps);
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });
const pspGets = (path: string) => psp.calls.filter((c) => c.method === 'GET' && c.path === path).length;

/** A live subscription created at the PSP, not yet answered: its idRec. */
async function created(name: string, extra: Record<string, unknown> = {}) {
  const { live: api } = await liveWorkspace(world, name);
  const start = addDays(dayOf(world.clock.now()), 10);
  const res = await api.post('/v1/live/subscriptions', monthly(start, extra));
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as string;
  const rec = [...psp.automatic.recs.values()].find((r) => r.body.vinculo && r.status === 'CRIADA')!;
  return { api, id, idRec: rec.idRec, start };
}

/** Approved by notification, its first cobr sent by the poll, the clock on its due date: the cobr's txid. */
async function dueCycle(name: string, extra: Record<string, unknown> = {}) {
  const sub = await created(name, extra);
  psp.automatic.answer(sub.idRec, 'APROVADA');
  expect((await psp.automatic.notifyRec(sub.idRec)).body).toMatchObject({ data: { applied: 1 } });
  const view = (await sub.api.get(`/v1/live/subscriptions/${sub.id}`)).json().data;
  expect(view).toMatchObject({ status: 'active', authorised_at: expect.any(String) });
  world.clock.advance(5 * DAY_MS);
  await run();
  const cobr = [...psp.automatic.cobrs.values()].find((c) => c.idRec === sub.idRec)!;
  world.clock.advance(5 * DAY_MS);
  return { ...sub, txid: cobr.txid };
}

const cycleEvent = async (api: Client, type: string) =>
  ((await api.get('/v1/live/events?limit=100')).json().data as { type: string; data: { object: unknown } }[])
    .filter((event) => event.type === type)
    .map((event) => event.data.object);

describe('the PSP’s Pix Automático notifications', () => {
  it('register at the PSP under our notification URL, secret in the query', () => {
    expect(psp.automatic.webhooks.rec).toMatch(
      /\/v1\/psp\/pix\/notifications\/automatico\?hmac=.+&ignorar=$/,
    );
    expect(psp.automatic.webhooks.cobr).toBe(psp.automatic.webhooks.rec);
  });

  it('apply an approval and a paid cycle once; the same notifications and the poll after change nothing', async () => {
    const { api, id, idRec, txid } = await dueCycle('Notificada Ltda');
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data.status).toBe('active');
    const again = await psp.automatic.notifyRec(idRec);
    expect(again.body).toEqual({ data: { received: 1, matched: 1, applied: 0 } });

    psp.automatic.settle(txid, 'CONCLUIDA', fakeEndToEndId());
    const paid = await psp.automatic.notifyCobr(txid);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(pspGets(`/v2/cobr/${txid}`)).toBeGreaterThan(0);
    expect(await available(api, 'live')).toBe('3500');
    expect((await psp.automatic.notifyCobr(txid)).body).toMatchObject({ data: { applied: 0 } });
    await run();
    expect(await available(api, 'live')).toBe('3500');
    expect(await subscriptionEvents(api, id, 'live')).toEqual([
      'subscription.created',
      'subscription.authorised',
      'subscription.cycle_scheduled',
      'subscription.cycle_paid',
    ]);
  });

  it('credit a paid cycle once when two notifications and the poll see it at the same time', async () => {
    const { api, id, txid } = await dueCycle('Concorrida Ltda');
    psp.automatic.settle(txid, 'CONCLUIDA', fakeEndToEndId());
    const [first, second] = await Promise.all([
      psp.automatic.notifyCobr(txid),
      psp.automatic.notifyCobr(txid),
      run(),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await available(api, 'live')).toBe('3500');
    const events = await subscriptionEvents(api, id, 'live');
    expect(events.filter((type) => type === 'subscription.cycle_paid')).toHaveLength(1);
  });

  it('apply the payer’s cancellation: no cycle is charged after it', async () => {
    const { api, id, idRec } = await created('Cancelada Pelo Pagador Ltda');
    psp.automatic.answer(idRec, 'APROVADA');
    await psp.automatic.notifyRec(idRec);
    psp.automatic.cancelByPayer(idRec);
    expect((await psp.automatic.notifyRec(idRec)).body).toMatchObject({ data: { applied: 1 } });
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'payer',
      next_due_date: null,
    });
    world.clock.advance(10 * DAY_MS);
    await run();
    expect([...psp.automatic.cobrs.values()].filter((c) => c.idRec === idRec)).toEqual([]);
    expect((await api.get(`/v1/live/subscriptions/${id}/cycles`)).json().data).toEqual([]);
  });

  it('record a rejected attempt’s code and reason on the cycle and in its failure event', async () => {
    const { api, id, txid, start } = await dueCycle('Conta Bloqueada Ltda');
    psp.automatic.rejectAttempt(txid, { codigo: 'AC06', descricao: 'Conta bloqueada' });
    expect((await psp.automatic.notifyCobr(txid)).body).toMatchObject({ data: { applied: 1 } });

    const failure = { rejection_code: 'AC06', rejection_reason: 'Conta bloqueada' };
    const cycles = (await api.get(`/v1/live/subscriptions/${id}/cycles`)).json().data;
    expect(cycles).toMatchObject([
      { status: 'failed', attempts: 1, attempt_history: [{ date: start, outcome: 'failed', ...failure }] },
    ]);
    expect(cycles[0].last_failure).toEqual(failure);
    const [event] = await cycleEvent(api, 'subscription.cycle_failed');
    expect(event).toMatchObject({ subscription_id: id, last_failure: failure });
    await run();
    expect((await api.get(`/v1/live/subscriptions/${id}/cycles`)).json().data).toEqual(cycles);
  });

  it('carry the payer’s maximum when the PSP reports one; a next cycle above it is refused', async () => {
    const { api, id, idRec } = await created('Valor Variavel Ltda', {
      amount_minor: undefined,
      minimum_minor: '2990',
    });
    const rec = psp.automatic.recs.get(idRec)!;
    rec.body = { ...rec.body, valor: { valorMinimoRecebedor: '29.90', valorMaximo: '60.00' } };
    psp.automatic.answer(idRec, 'APROVADA');
    await psp.automatic.notifyRec(idRec);
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data).toMatchObject({
      status: 'active',
      payer_maximum_minor: '6000',
    });
    const over = await api.post(`/v1/live/subscriptions/${id}/cycles/next`, { amount_minor: '6001' });
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json()).toMatchObject({
      error: 'amount_out_of_range',
      details: [{ field: 'body.amount_minor', issue: expect.stringContaining('6000') }],
    });
    const ok = await api.post(`/v1/live/subscriptions/${id}/cycles/next`, { amount_minor: '6000' });
    expect(ok.json().data.next_amount_minor).toBe('6000');
    world.clock.advance(5 * DAY_MS);
    await run();
    expect([...psp.automatic.cobrs.values()].find((c) => c.idRec === idRec)?.valor).toBe('60.00');
  });

  it('set aside an item the PSP’s API cannot answer for, and apply the rest of the notification', async () => {
    const bad = await dueCycle('Cobranca Ilegivel Ltda');
    const good = await dueCycle('Cobranca Legivel Ltda');
    // An attempt in a status we cannot read: its cobr fails every time it is looked at.
    const unreadable = psp.automatic.cobrs.get(bad.txid)!.tentativas;
    unreadable.push({ ...unreadable[0]!, status: 'DESCONHECIDA' as 'AGENDADA' });
    psp.automatic.settle(good.txid, 'CONCLUIDA', fakeEndToEndId());
    const res = await fetch(`${psp.automatic.webhooks.cobr}/cobr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        cobsr: [
          { idRec: bad.idRec, txid: bad.txid, status: 'ATIVA' },
          { idRec: good.idRec, txid: good.txid, status: 'CONCLUIDA' },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { received: 2, matched: 2 } });
    expect(await available(good.api, 'live')).toBe('3500');
    const { rows } = await world.deps.db.query<{ payload: unknown; workspace_id: string | null }>(
      `SELECT payload, workspace_id FROM set_aside_items
        WHERE source = 'pix-automatico-notification' AND resolved_at IS NULL`,
    );
    expect(rows).toHaveLength(1);
    const payload = typeof rows[0]!.payload === 'string' ? JSON.parse(rows[0]!.payload) : rows[0]!.payload;
    expect(payload).toMatchObject({ txid: bad.txid });
    unreadable.pop();
  });

  it('without the secret, or with a wrong one, are refused and apply nothing', async () => {
    const url = psp.automatic.webhooks.rec!.replace(/\?.*$/, '');
    const body = JSON.stringify({ recs: [{ idRec: 'RN1234567820270101abcdefghijk', status: 'CANCELADA' }] });
    const headers = { 'content-type': 'application/json' };
    const missing = await fetch(`${url}/rec`, { method: 'POST', headers, body });
    expect(missing.status).toBe(401);
    const wrong = await fetch(`${url}?hmac=wrong&ignorar=/rec`, { method: 'POST', headers, body });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_credentials');
  });
});
