/**
 * Live revisions and cancellations of due-date charges against the fake PSP (BCB API Pix, PATCH
 * /cobv/{txid}): the PSP is asked first and nothing changes here when it is away; a PIX that reaches
 * a cancelled cobv anyway is held for the workspace, never credited to the party, never dropped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveDueCharges } from '../../src/modules/pix/due-charge-tasks.ts';
import { MtlsClient } from '../../src/providers/pix/bcb/http.ts';
import { DEBTOR, spDate } from './due-charges-support.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

const DUE = '/v1/live/pix/due-charges';

async function liveDueCharge(name: string) {
  const { ws, live: api } = await liveWorkspace(world, name);
  const res = await api.post(DUE, {
    amount_minor: '10000',
    due_date: spDate(0),
    days_valid_after_due: 0,
    debtor: DEBTOR,
    rebate: { modality: 1, value_minor: '100' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ws, api, charge: res.json().data };
}

describe('live due-date charge revisions', () => {
  it('a revision is PATCH /cobv/{txid} first; the cobv poll then credits the revised amount', async () => {
    const { ws, api, charge } = await liveDueCharge('Cobv revised');
    const res = await api.patch(`${DUE}/${charge.id}`, { amount_minor: '12000', due_date: spDate(3) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ revision: 1, amount_due_today_minor: '11900' });
    const cobv = psp.cobvs.get(charge.pix_txid)!;
    expect(cobv.revisao).toBe(1);
    expect(cobv.request).toMatchObject({
      calendario: { dataDeVencimento: spDate(3), validadeAposVencimento: 0 },
      valor: { original: '120.00', abatimento: { modalidade: 1, valorPerc: '1.00' } },
    });
    expect(res.json().data.pix_qr_code).toBe(cobv.pixCopiaECola);
    await psp.payCobv(charge.pix_txid, '119.00', false);
    await pollLiveDueCharges(world.deps);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data).toMatchObject({
      status: 'completed',
      amount_minor: '11900',
    });
    expect(await ws.balances('live')).toMatchObject({ available: '11900' });
  });

  it('with the PSP away: 503 provider_unavailable, and neither the charge nor the PSP changed', async () => {
    const { api, charge } = await liveDueCharge('Cobv PSP away');
    for (const body of [{ amount_minor: '500' }, { status: 'cancelled' }]) {
      psp.failNext({ method: 'PATCH', path: /\/cobv\//, status: 503 });
      const res = await api.patch(`${DUE}/${charge.id}`, body);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toBe('provider_unavailable');
    }
    expect((await api.get(`${DUE}/${charge.id}`)).json().data).toMatchObject({
      status: 'created',
      revision: 0,
      amount_minor: '10000',
    });
    expect(psp.cobvs.get(charge.pix_txid)).toMatchObject({ status: 'ATIVA' });
    expect(psp.cobvs.get(charge.pix_txid)!.revisao ?? 0).toBe(0);
  });

  it('an Idempotency-Key sent again with another body is 409 before the PSP is asked', async () => {
    const { api, charge } = await liveDueCharge('Cobv key reused');
    const key = { 'idempotency-key': `revise-${charge.id}` };
    const first = await api.patch(`${DUE}/${charge.id}`, { amount_minor: '12000' }, key);
    expect(first.statusCode, first.body).toBe(200);
    for (const body of [{ status: 'cancelled' }, { amount_minor: '13000' }]) {
      const res = await api.patch(`${DUE}/${charge.id}`, body, key);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toBe('idempotency_key_reuse');
    }
    const cobv = psp.cobvs.get(charge.pix_txid)!;
    expect(cobv).toMatchObject({ status: 'ATIVA', revisao: 1 });
    expect(cobv.request.valor.original).toBe('120.00');
    expect((await api.get(`${DUE}/${charge.id}`)).json().data).toMatchObject({
      status: 'created',
      revision: 1,
      amount_minor: '12000',
    });
  });

  it('a cobv the PSP shows paid cannot be revised: 422 invalid_state, nothing changed', async () => {
    const { api, charge } = await liveDueCharge('Cobv paid at the PSP');
    await psp.payCobv(charge.pix_txid, '99.00', false);
    const res = await api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    expect((await api.get(`${DUE}/${charge.id}`)).json().data.status).toBe('created');
  });
});

describe('live due-date charge cancellation', () => {
  it('a cancel sent again after the PSP removed the cobv but the books did not follow completes', async () => {
    const { api, charge } = await liveDueCharge('Cobv removed before the books');
    // The first cancel reached the PSP; its answer never came back, so nothing was recorded here.
    const cobv = psp.cobvs.get(charge.pix_txid)!;
    cobv.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    cobv.revisao = 1;
    const res = await api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'cancelled', revision: 1 });
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('expired');
  });

  it('removes the cobv at the PSP; a PIX that reaches it anyway is held, not credited', async () => {
    const { ws, api, charge } = await liveDueCharge('Cobv cancelled');
    const res = await api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'cancelled', revision: 1 });
    const cobv = psp.cobvs.get(charge.pix_txid)!;
    expect(cobv).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    // The PSP's own list (GET /cobv, CobsVConsultadas) shows it removed too.
    const settings = psp.settings(live.webhookUrl);
    const http = new MtlsClient(settings);
    const day = new Date().toISOString().slice(0, 10);
    const listed = await http.call(
      'GET',
      `${settings.baseUrl}/cobv?inicio=${day}T00:00:00Z&fim=${day}T23:59:59Z&status=REMOVIDA_PELO_USUARIO_RECEBEDOR`,
    );
    http.close();
    expect(listed.body.cobs).toEqual(
      expect.arrayContaining([expect.objectContaining({ txid: charge.pix_txid, revisao: 1 })]),
    );

    // A PSP at fault takes a PIX on the removed cobv and notifies it.
    cobv.status = 'ATIVA';
    const { endToEndId, callback } = await psp.payCobv(charge.pix_txid, '99.00');
    expect(callback).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    const again = await psp.callback({ pix: cobv.pix });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    await pollLiveDueCharges(world.deps);

    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    expect((await api.get(`${DUE}/${charge.id}`)).json().data.status).toBe('cancelled');
    const held = (await api.get('/v1/live/pix/unassigned')).json().data;
    expect(held).toEqual([
      expect.objectContaining({ end_to_end_id: endToEndId, amount_minor: '9900', status: 'unassigned' }),
    ]);
    expect(await ws.eventTypes(charge.id)).toEqual([
      'payment.created',
      'payment.expired',
      'due_charge.cancelled',
    ]);
  });
});
