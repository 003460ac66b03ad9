/**
 * A live subscription against the fake PSP over mutual TLS: the recurrence is created with POST /rec
 * and authorised at the payer's PSP, each cycle's cobr is sent inside the 2-to-10-day window before
 * its due date, a paid cobr is credited once however often the task runs, and the payer's
 * cancellation at their PSP ends the subscription.
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
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;

describe('live Pix Automático', () => {
  it('authorised at the PSP, sends the cycle inside the window, credits it once, ends on the payer’s cancellation', async () => {
    const { live: api } = await liveWorkspace(world, 'Assinaturas Ltda');
    const start = addDays(dayOf(world.clock.now()), 10);
    const created = await api.post(
      '/v1/live/subscriptions',
      monthly(start, { retry_policy: 'three_in_seven_days' }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;
    const [rec] = [...psp.automatic.recs.values()];
    expect(rec).toMatchObject({ status: 'CRIADA' });
    expect(rec!.idRec).toMatch(/^RR[0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/);
    expect(rec!.body).toMatchObject({
      vinculo: { contrato: id.replaceAll('-', ''), devedor: { cpf: '52998224725', nome: 'Fulano de Tal' } },
      calendario: { dataInicial: start, periodicidade: 'MENSAL' },
      valor: { valorRec: '35.00' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });

    await run();
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data.status).toBe('pending_authorisation');
    psp.automatic.answer(rec!.idRec, 'APROVADA');
    await run();
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data.status).toBe('active');
    expect(psp.automatic.cobrs.size).toBe(0);

    world.clock.advance(5 * DAY_MS);
    // The PSP is away when the cycle is sent: the cycle is kept and sent at the next round, once.
    psp.failNext({ method: 'PUT', path: /^\/v2\/cobr\//, status: 503 });
    await expect(run()).rejects.toThrow();
    expect(psp.automatic.cobrs.size).toBe(0);
    await run();
    await run();
    expect(psp.automatic.cobrs.size).toBe(1);
    const [cobr] = [...psp.automatic.cobrs.values()];
    expect(cobr).toMatchObject({ idRec: rec!.idRec, dueDate: start, valor: '35.00', status: 'ATIVA' });
    const lead = daysBetween(cobr!.receivedOn, cobr!.dueDate);
    expect(lead).toBeGreaterThanOrEqual(2);
    expect(lead).toBeLessThanOrEqual(10);

    world.clock.advance(5 * DAY_MS);
    await run();
    expect(await available(api, 'live')).toBe('0');
    psp.automatic.settle(cobr!.txid, 'CONCLUIDA', fakeEndToEndId());
    await run();
    await run();
    expect(await available(api, 'live')).toBe('3500');
    expect(psp.automatic.cobrs.size).toBe(1);

    psp.automatic.cancelByPayer(rec!.idRec);
    await run();
    const ended = (await api.get(`/v1/live/subscriptions/${id}`)).json().data;
    expect(ended).toMatchObject({ status: 'cancelled', cancelled_by: 'payer', cycles_paid: 1 });
    const events = await subscriptionEvents(api, id, 'live');
    expect(events).toEqual([
      'subscription.created',
      'subscription.authorised',
      'subscription.cycle_scheduled',
      'subscription.cycle_paid',
      'subscription.cancelled',
    ]);
  });
});

describe('live cancellation by the receiver', () => {
  it('cancels at the PSP first; a PSP that refuses leaves the subscription as it was', async () => {
    const { live: api } = await liveWorkspace(world, 'Cancela Ltda');
    const start = addDays(dayOf(world.clock.now()), 10);
    const id = (await api.post('/v1/live/subscriptions', monthly(start))).json().data.id as string;
    const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
    psp.automatic.answer(rec.idRec, 'APROVADA');
    await run();
    psp.failNext({ method: 'PATCH', path: /^\/v2\/rec\//, status: 400 });
    const refused = await api.post(`/v1/live/subscriptions/${id}/cancel`, {});
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toBe('provider_unavailable');
    expect((await api.get(`/v1/live/subscriptions/${id}`)).json().data.status).toBe('active');
    const cancelled = await api.post(`/v1/live/subscriptions/${id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled', cancelled_by: 'receiver' });
    expect(psp.automatic.recs.get(rec.idRec)).toMatchObject({
      status: 'CANCELADA',
      cancelledBy: 'USUARIO_RECEBEDOR',
    });
  });
});
