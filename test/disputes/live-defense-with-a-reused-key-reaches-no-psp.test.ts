/**
 * Live: a defense sent with an Idempotency-Key that already guards another dispute's defense is 409
 * before the PSP hears of it, so no infraction goes under defense at the PSP with nothing recorded. The
 * same defense sent again with its key answers the first answer.
 */
import { afterAll, expect, it } from 'vitest';
import { pollLiveInfractions } from '../../src/modules/disputes/infractions.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

it('a reused key on another dispute’s defense is 409 and the PSP is not told', async () => {
  const { live: api } = await liveWorkspace(world, 'Defesa chave');
  const infraction = async () => {
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '10000' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid);
    return psp.openInfraction(endToEndId, { razao: 'Pagador relata golpe' });
  };
  const [first, second] = [await infraction(), await infraction()];
  await pollLiveInfractions(world.deps);
  const disputes = (await api.get('/v1/live/disputes')).json().data as {
    id: string;
    infraction_id?: string;
  }[];
  expect(disputes).toHaveLength(2);
  const key = { 'idempotency-key': 'defense-once' };
  const body = { text: 'Pedido 7 entregue.' };
  const defended = await api.post(`/v1/live/disputes/${disputes[0]!.id}/defense`, body, key);
  expect(defended.statusCode, defended.body).toBe(200);
  const again = await api.post(`/v1/live/disputes/${disputes[0]!.id}/defense`, body, key);
  expect(again.json()).toEqual(defended.json());
  const other = await api.post(`/v1/live/disputes/${disputes[1]!.id}/defense`, body, key);
  expect(other.statusCode, other.body).toBe(409);
  expect(other.json().error).toBe('idempotency_key_reuse');
  const underDefense = [first, second].filter((id) => psp.infractions.get(id)!.status === 'EM_DEFESA');
  expect(underDefense).toHaveLength(1);
});
