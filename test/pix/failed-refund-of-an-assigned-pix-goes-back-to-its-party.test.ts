/**
 * A party refunds (part of) a cash-in that came from a PIX held without a charge and assigned to it;
 * the PSP refuses the refund: its money goes back to the party, as any failed refund's does (never to
 * suspense, which only a return of a held PIX goes back to), and `lastro verify` agrees.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a failed refund of a cash-in assigned from a held PIX', () => {
  it('gives the money back to the party and the books verify', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'Refund of an assigned PIX');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '9.00' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    const refund = await api.post(`/v1/live/payments/${assigned.json().data.payment_id}/refund`, {
      amount_minor: '400',
    });
    expect(refund.statusCode, refund.body).toBe(200);
    await world.drainJobs();
    const sent = [...psp.refunds.values()].find((r) => r.e2e === endToEndId)!;
    await psp.settleRefund(sent.id, 'NAO_REALIZADO');
    expect((await api.get(`/v1/live/payments/${refund.json().data.id}`)).json().data.status).toBe('failed');
    expect(await ws.balances('live')).toMatchObject({ available: '900', locked: '0' });
    await expectBooksVerified(world.deps);
  });
});
