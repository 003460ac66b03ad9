/**
 * Live due-date charges against the fake PSP (BCB API Pix over mutual TLS): PUT /cobv/{txid} with
 * the standard's CobVSolicitada; the PIX the PSP received is credited once, for what it reports,
 * when that is the amount due on its day, else set aside; an unpaid one expires after its last day;
 * a batch goes as one PUT /lotecobv/{id}.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveDueCharges } from '../../src/modules/pix/due-charge-tasks.ts';
import { pollLiveCharges } from '../../src/modules/pix/notifications/charge-poll.ts';
import { expectBooksVerified } from '../support/books.ts';
import { FAKE_PIX_KEY } from '../support/fakes/pix-psp.ts';
import { DEBTOR, spDate } from './due-charges-support.ts';
import { liveWorkspace, pspIdOf, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

/** R$ 100.00 due today with a R$ 1.00 rebate: R$ 99.00 due today. */
const body = () => ({
  amount_minor: '10000',
  due_date: spDate(0),
  days_valid_after_due: 0,
  debtor: DEBTOR,
  description: 'Mensalidade',
  fine: { modality: 2, percent: '2.00' },
  interest: { modality: 2, percent: '0.33' },
  rebate: { modality: 1, value_minor: '100' },
});

async function liveDueCharge(name: string, extra: Record<string, unknown> = {}) {
  const { ws, live: api } = await liveWorkspace(world, name);
  const res = await api.post('/v1/live/pix/due-charges', { ...body(), ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return { ws, api, charge: res.json().data };
}

describe('live due-date charges', () => {
  it('PUT /cobv/{txid} carries the standard’s fields, and the BR Code is the PSP’s', async () => {
    const { charge } = await liveDueCharge('Cobv body');
    expect(charge.pix_txid).toBe(pspIdOf(charge.id));
    const cobv = psp.cobvs.get(charge.pix_txid)!;
    expect(cobv.request).toEqual({
      calendario: { dataDeVencimento: spDate(0), validadeAposVencimento: 0 },
      devedor: { cpf: '52998224725', nome: 'Francisco da Silva' },
      valor: {
        original: '100.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '0.33' },
        abatimento: { modalidade: 1, valorPerc: '1.00' },
      },
      chave: FAKE_PIX_KEY,
      solicitacaoPagador: 'Mensalidade',
    });
    expect(charge.pix_qr_code).toBe(cobv.pixCopiaECola);
    expect(charge.amount_due_today_minor).toBe('9900');
  });

  it('paid the amount due today: the callback alone does not credit it, the cobv poll credits it once', async () => {
    const { ws, api, charge } = await liveDueCharge('Cobv paid');
    const paid = await psp.payCobv(charge.pix_txid, '99.00');
    expect(paid.callback).toMatchObject({ status: 200 });
    await pollLiveDueCharges(world.deps);
    await pollLiveDueCharges(world.deps);
    await pollLiveCharges(world.deps);
    const again = await psp.callback({ pix: psp.cobvs.get(charge.pix_txid)!.pix });
    expect(again.status).toBe(200);
    const payment = (await api.get(`/v1/live/payments/${charge.id}`)).json().data;
    expect(payment).toMatchObject({ status: 'completed', amount_minor: '9900', pix_tx_id: paid.endToEndId });
    expect(await ws.balances('live')).toMatchObject({ available: '9900' });
    expect(await ws.eventTypes(charge.id)).toEqual(['payment.created', 'payment.completed']);
    await expectBooksVerified(world.deps);
  });

  it('paid another amount than the day asks: set aside, nothing credited', async () => {
    const { ws, api, charge } = await liveDueCharge('Cobv wrong amount');
    await psp.payCobv(charge.pix_txid, '50.00', false);
    await expect(pollLiveDueCharges(world.deps)).rejects.toMatchObject({ name: 'SetAsideError' });
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('created');
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    const { rows } = await world.db.query(
      "SELECT item_key FROM set_aside_items WHERE source = 'pix-due-charge-poll' AND item_key = $1",
      [charge.id],
    );
    expect(rows).toHaveLength(1);
  });

  it('paid the original when the day asks less: the charge poll does not credit it either', async () => {
    const { ws, api, charge } = await liveDueCharge('Cobv original paid');
    await psp.payCobv(charge.pix_txid, '100.00', false);
    await pollLiveCharges(world.deps).catch((error) => {
      if (error.name !== 'SetAsideError') throw error;
    });
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('created');
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
  });

  it('unpaid after its last day: the poll expires it', async () => {
    const { api, charge } = await liveDueCharge('Cobv expired');
    world.clock.advance(2 * 86_400_000);
    try {
      // The charge another test set aside comes back now its retry is due: that is not this test's.
      await pollLiveDueCharges(world.deps).catch((error) => {
        if (error.name !== 'SetAsideError') throw error;
      });
    } finally {
      world.clock.advance(-2 * 86_400_000);
    }
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('expired');
  });

  it('a batch is one PUT /lotecobv/{id}; each item gets its charge or its error', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Cobv batch');
    const res = await api.post('/v1/live/pix/due-charges/batch', {
      description: 'Lote de dezembro',
      charges: [
        body(),
        { ...body(), discount: { modality: 6, percent: '1.00' } },
        { ...body(), amount_minor: '2500' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { batch_id, results } = res.json().data;
    const lote = psp.lotes.get(batch_id)!;
    expect(lote.descricao).toBe('Lote de dezembro');
    expect(lote.cobsv.map((item) => item.status)).toEqual(['CRIADA', 'CRIADA']);
    expect(results[0].charge.pix_qr_code).toBe(psp.cobvs.get(results[0].charge.pix_txid)!.pixCopiaECola);
    expect(results[1]).toMatchObject({ charge: null, error: { error: 'invalid_request' } });
    expect(results[2].charge).toMatchObject({ amount_minor: '2500', status: 'created' });
    expect(await ws.paymentCount('pix_cash_in', 'live')).toBe(2);
  });

  it('a batch item the PSP is still creating is recorded, and the poll gives it the PSP’s BR Code', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Cobv batch still processing');
    psp.holdLotes();
    const res = await api.post('/v1/live/pix/due-charges/batch', { charges: [body()] });
    psp.releaseLotes();
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().data.results;
    expect(result).toMatchObject({ error: null, charge: { status: 'created', pix_qr_code: null } });
    expect(await ws.paymentCount('pix_cash_in', 'live')).toBe(1);
    await pollLiveDueCharges(world.deps);
    const shown = (await api.get(`/v1/live/pix/due-charges/${result.charge.id}`)).json().data;
    expect(shown.pix_qr_code).toBe(psp.cobvs.get(result.charge.pix_txid)!.pixCopiaECola);
  }, 20_000);
});
