/**
 * Live: a defense the PSP took whose record was lost (the process stopped between the PSP's answer
 * and the commit). The poll sees the infraction EM_DEFESA and the dispute follows it, under review;
 * the merchant's retry records its text instead of being refused by the PSP.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveInfractions } from '../../src/modules/disputes/infractions.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a live defense the PSP took but the dispute never recorded', () => {
  it('the dispute follows the PSP under review, and the retried defense is recorded', async () => {
    const { live: api } = await liveWorkspace(world, 'Defesa perdida');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '10000' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid);
    const infractionId = psp.openInfraction(endToEndId, { razao: 'Pagador relata golpe' });
    await pollLiveInfractions(world.deps);
    const [dispute] = (await api.get('/v1/live/disputes')).json().data;

    // What the lost request did: the PSP has the defense, the dispute does not.
    const provider = world.deps.providers.get('pix', 'live');
    await provider.submitDefense!({ infractionId, text: 'Pedido 7 entregue.', evidence: [] });
    expect(psp.infractions.get(infractionId)!.status).toBe('EM_DEFESA');

    expect(await pollLiveInfractions(world.deps)).toBe(1);
    expect((await api.get(`/v1/live/disputes/${dispute.id}`)).json().data).toMatchObject({
      status: 'under_review',
      defense: null,
    });
    const retried = await api.post(`/v1/live/disputes/${dispute.id}/defense`, { text: 'Pedido 7 entregue.' });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({
      status: 'under_review',
      defense: { text: 'Pedido 7 entregue.', evidence: [] },
    });
  });
});
