/**
 * Live: the PSP can mark an infraction accepted before its MED devolução shows on the PIX. The dispute
 * keeps its hold until the devolução is visible, then closes returned taking it once: the money is
 * never back in available in between, where a payout or conversion could take it and leave a debt.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveInfractions } from '../../src/modules/disputes/infractions.ts';
import { pollLiveChargeReturns } from '../../src/modules/pix/notifications/charge-poll.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { expectBooksVerified } from '../support/books.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a live infraction accepted before its devolução is visible', () => {
  it('keeps the hold until the devolução shows, then closes returned taking it once', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Aceita antes da devolucao');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '10000' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid);
    const infractionId = psp.openInfraction(endToEndId, { razao: 'Pagador relata golpe' });
    expect(await pollLiveInfractions(world.deps)).toBe(1);
    const [dispute] = (await api.get('/v1/live/disputes')).json().data;

    psp.decideInfraction(infractionId, 'ACEITA');
    await pollLiveInfractions(world.deps);
    expect((await api.get(`/v1/live/disputes/${dispute.id}`)).json().data.status).toBe('open');
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '10000' });

    await psp.medReturn(endToEndId, { valor: '100.00', natureza: 'MED_FRAUDE', notify: false });
    // Whichever sees the devolução first, the PIX module's poll or the dispute's, it is applied once.
    await pollLiveChargeReturns(world.deps);
    expect(await pollLiveInfractions(world.deps)).toBe(1);
    const closed = (await api.get(`/v1/live/disputes/${dispute.id}`)).json().data;
    expect(closed.status).toBe('closed_returned');
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '0' });
    expect((await api.get('/v1/live/payments?kind=pix_med_return')).json().data).toHaveLength(1);
    await expectBooksVerified(world.deps);
  });
});
