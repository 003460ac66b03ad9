/**
 * A refund of the disputed cash-in while its dispute is open: the payer got the money back, so the
 * dispute's return takes only what the charge still has to give. Closing returned must not fail (the
 * hold stuck in locked for good) nor return the same money twice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { startWorld } from '../support/world.ts';
import { closeDispute, openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('a refund of the disputed payment while the dispute is open', () => {
  it('a dispute closes returned after the payment was refunded in full: the hold goes back, nothing is returned twice', async () => {
    const ws = await world.workspace('Reembolso Total');
    const api = ws.api;
    await paidCashIn(api, '20000');
    const cashIn = await paidCashIn(api, '10000');
    const dispute = await openDispute(api, cashIn.id);
    expect(await ws.balances()).toMatchObject({ available: '20000', locked: '10000' });
    // The merchant refunds out of its other money; the disputed 10000 stays locked.
    const refund = await api.post(`/v1/sandbox/payments/${cashIn.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    await world.drainJobs();
    const refunded = await ws.balances();
    expect(refunded.locked).toBe('10000');
    const closed = await closeDispute(api, dispute.id, 'returned');
    expect(closed).toMatchObject({ status: 'closed_returned', return_payment_id: null });
    // The payer has its money back from the refund: the hold goes back to the party, none returned again.
    expect(await ws.balances()).toMatchObject({
      available: String(BigInt(refunded.available!) + 10000n),
      locked: '0',
    });
    await expectBooksVerified(world.deps);
  });

  it('a dispute closes returned after a partial refund: only what the charge still has is returned', async () => {
    const ws = await world.workspace('Reembolso Parcial');
    const api = ws.api;
    const before = await ws.balances();
    const cashIn = await paidCashIn(api, '10000');
    const refund = await api.post(`/v1/sandbox/payments/${cashIn.id}/refund`, { amount_minor: '4000' });
    expect(refund.statusCode, refund.body).toBe(200);
    await world.drainJobs();
    const dispute = await openDispute(api, cashIn.id);
    const closed = await closeDispute(api, dispute.id, 'returned');
    expect(closed.status).toBe('closed_returned');
    const returned = (await api.get(`/v1/sandbox/payments/${closed.return_payment_id}`)).json().data;
    expect(returned).toMatchObject({ kind: 'pix_med_return', amount_minor: '6000' });
    expect(await ws.balances()).toMatchObject({ available: before.available, locked: '0' });
    await expectBooksVerified(world.deps);
  });
});
