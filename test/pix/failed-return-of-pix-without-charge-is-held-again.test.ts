/**
 * The return of a PIX received without a charge that the PSP refuses leaves the PIX held again, its
 * money in suspense: not credited to the workspace's default party, and not stuck as returned; the
 * cash-in the return was made of cannot then be refunded from that party.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a failed return of a PIX without a charge', () => {
  it('holds the PIX again, its money back in suspense, to assign or return once more', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Failed unassigned return');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '5.00' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    const returned = await api.post(`/v1/live/pix/unassigned/${held.id}/return`);
    expect(returned.statusCode, returned.body).toBe(200);
    await world.drainJobs();
    const refund = [...psp.refunds.values()].find((r) => r.e2e === endToEndId)!;
    await psp.settleRefund(refund.id, 'NAO_REALIZADO');
    const { refund_id } = returned.json().data;
    expect((await api.get(`/v1/live/payments/${refund_id}`)).json().data.status).toBe('failed');
    expect((await api.get(`/v1/live/pix/unassigned/${held.id}`)).json().data).toMatchObject({
      status: 'unassigned',
      refund_id: null,
      payment_id: null,
    });
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '0' });
    await expectBooksVerified(world.deps);

    // The cash-in the return was made of was never the default party's: it cannot be refunded, even
    // once the party has money of its own (another PIX assigned to it).
    const other = await psp.receive({ valor: '3.00' });
    const otherHeld = (await api.get('/v1/live/pix/unassigned'))
      .json()
      .data.find((p: { end_to_end_id: string }) => p.end_to_end_id === other.endToEndId);
    expect((await api.post(`/v1/live/pix/unassigned/${otherHeld.id}/assign`, {})).statusCode).toBe(200);
    const { payment_id } = returned.json().data;
    const refundAgain = await api.post(`/v1/live/payments/${payment_id}/refund`, { amount_minor: '200' });
    expect(refundAgain.statusCode).toBe(422);
    expect(refundAgain.json()).toMatchObject({ error: 'invalid_state' });
    expect(await ws.balances('live')).toMatchObject({ available: '300', locked: '0' });

    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '800' });
    await expectBooksVerified(world.deps);
  });
});
