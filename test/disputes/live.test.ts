/**
 * Live disputes against the fake PSP speaking Efí's MED API (GET /v2/gn/infracoes, POST
 * /v2/gn/infracoes/:id/defesa): the poll opens a dispute for an infraction on our cash-in, holding
 * its amount; the defense reaches the PSP (or, the PSP away, answers 503 and records nothing); the
 * PSP's decision closes it: accepted, its MED devolução is applied once; rejected, the hold is released.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveInfractions } from '../../src/modules/disputes/infractions.ts';
import { pollLiveChargeReturns } from '../../src/modules/pix/notifications/charge-poll.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { expectBooksVerified } from '../support/books.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

async function paidLiveCharge(name: string, amount: string) {
  const { ws, live: api } = await liveWorkspace(world, name);
  const charge = (await api.post('/v1/live/pix/charges', { amount_minor: amount })).json().data;
  const paid = await psp.pay(charge.pix_txid);
  expect(paid.callback?.status).toBe(200);
  return { ws, api, charge, endToEndId: paid.endToEndId };
}

describe('live disputes', () => {
  it('an infraction opens a dispute, the defense reaches the PSP, acceptance returns the money once', async () => {
    const { ws, api, charge, endToEndId } = await paidLiveCharge('Live dispute', '10000');
    const infractionId = psp.openInfraction(endToEndId, { razao: 'Pagador relata golpe' });
    expect(await pollLiveInfractions(world.deps)).toBe(1);
    expect(await pollLiveInfractions(world.deps)).toBe(0);
    const [dispute] = (await api.get('/v1/live/disputes')).json().data;
    expect(dispute).toMatchObject({
      payment_id: charge.id,
      infraction_id: infractionId,
      status: 'open',
      amount_minor: '10000',
      held_minor: '10000',
      reason: 'golpe: Pagador relata golpe',
      deadline_at: psp.infractions.get(infractionId)!.dadosAnalise.prazoFinalizacao,
    });
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '10000' });

    const defended = await api.post(`/v1/live/disputes/${dispute.id}/defense`, {
      text: 'Pedido 7 entregue.',
      evidence: ['https://files.acme.com.br/pedido-7.pdf'],
    });
    expect(defended.statusCode, defended.body).toBe(200);
    expect(defended.json().data.status).toBe('under_review');
    expect(psp.infractions.get(infractionId)).toMatchObject({
      status: 'EM_DEFESA',
      analise: 'rejeitado',
      defesa: 'Pedido 7 entregue.\nhttps://files.acme.com.br/pedido-7.pdf',
    });

    await psp.medReturn(endToEndId, { valor: '100.00', natureza: 'MED_FRAUDE', notify: false });
    psp.decideInfraction(infractionId, 'ACEITA');
    expect(await pollLiveInfractions(world.deps)).toBe(1);
    const closed = (await api.get(`/v1/live/disputes/${dispute.id}`)).json().data;
    expect(closed).toMatchObject({ status: 'closed_returned', return_payment_id: expect.any(String) });
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '0' });
    // The PIX module's own poll finds the devolução applied: the money left once.
    await pollLiveChargeReturns(world.deps);
    expect((await api.get('/v1/live/payments?kind=pix_med_return')).json().data).toHaveLength(1);
    expect(await pollLiveInfractions(world.deps)).toBe(0);
    await expectBooksVerified(world.deps);
  });

  it('a defense the PSP cannot take answers 503 and records nothing; a rejection releases the hold', async () => {
    const { ws, api, endToEndId } = await paidLiveCharge('Live dispute rejected', '4000');
    const infractionId = psp.openInfraction(endToEndId, { valor: '30.00' });
    await pollLiveInfractions(world.deps);
    const [dispute] = (await api.get('/v1/live/disputes')).json().data;
    expect(await ws.balances('live')).toMatchObject({ available: '1000', locked: '3000' });

    psp.failNext({ path: /\/v2\/gn\/infracoes\/.+\/defesa$/, status: 503 });
    const down = await api.post(`/v1/live/disputes/${dispute.id}/defense`, { text: 'Entregue.' });
    expect(down.statusCode).toBe(503);
    expect(down.json().error).toBe('provider_unavailable');
    expect((await api.get(`/v1/live/disputes/${dispute.id}`)).json().data).toMatchObject({
      status: 'open',
      defense: null,
    });
    expect(psp.infractions.get(infractionId)!.status).toBe('ABERTA');

    psp.decideInfraction(infractionId, 'REJEITADA');
    expect(await pollLiveInfractions(world.deps)).toBe(1);
    expect((await api.get(`/v1/live/disputes/${dispute.id}`)).json().data.status).toBe('closed_rejected');
    expect(await ws.balances('live')).toMatchObject({ available: '4000', locked: '0' });
    await expectBooksVerified(world.deps);
  });
});
