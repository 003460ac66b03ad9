/**
 * Sandbox disputes over HTTP: a MED infraction on a paid cash-in holds its amount (available →
 * locked), the merchant lists, reads and defends it, and it closes returned (the money leaves as a
 * MED return) or rejected (the hold goes back); webhooks follow each step; the books verify.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { deliveries, dispatch, receiverEndpoint, startWebhookWorld } from '../webhooks/helpers.ts';
import { closeDispute, disputeUrl, openDispute, paidCashIn } from './support.ts';

const world = await startWebhookWorld();
const { ctx, api } = world;
afterAll(() => world.close());

describe('a sandbox dispute', () => {
  it('holds the amount, takes a defense and closes returned: the money leaves once as a MED return', async () => {
    const endpoint = await receiverEndpoint(world, '/disputes', [
      'dispute.opened',
      'dispute.updated',
      'dispute.closed',
    ]);
    const ws = world.ws;
    const cashIn = await paidCashIn(api, '10000');
    const dispute = await openDispute(api, cashIn.id, { reason: 'golpe' });
    expect(dispute).toMatchObject({
      payment_id: cashIn.id,
      party_id: ws.owner.defaultPartyId,
      status: 'open',
      reason: 'golpe',
      amount_minor: '10000',
      currency: 'BRL',
      held_minor: '10000',
      unheld_minor: '0',
      defense: null,
    });
    expect(Date.parse(dispute.deadline_at) - Date.parse(dispute.opened_at)).toBe(3 * 24 * 3600_000);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '10000' });

    const listed = await api.get('/v1/sandbox/disputes?status=open');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((d: { id: string }) => d.id)).toEqual([dispute.id]);
    expect((await api.get(disputeUrl(dispute.id))).json().data).toEqual(dispute);

    const defense = {
      text: 'The buyer received order 7; invoice attached.',
      evidence: ['https://files.acme.com.br/pedido-7.pdf', 'file_7Qx2'],
    };
    const defended = await api.post(`${disputeUrl(dispute.id)}/defense`, defense);
    expect(defended.statusCode, defended.body).toBe(200);
    expect(defended.json().data).toMatchObject({ status: 'under_review', defense });
    const again = await api.post(`${disputeUrl(dispute.id)}/defense`, defense);
    expect(again.statusCode).toBe(200);
    const other = await api.post(`${disputeUrl(dispute.id)}/defense`, { text: 'Another story.' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('invalid_state');

    const closed = await closeDispute(api, dispute.id, 'returned');
    expect(closed).toMatchObject({ status: 'closed_returned' });
    expect(closed.return_payment_id).toEqual(expect.any(String));
    expect(await closeDispute(api, dispute.id, 'returned')).toEqual(closed);
    const refused = await api.post(`/v1/sandbox/simulate/disputes/${dispute.id}/close`, {
      outcome: 'rejected',
    });
    expect(refused.statusCode).toBe(422);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '0' });
    const returned = (await api.get(`/v1/sandbox/payments/${closed.return_payment_id}`)).json().data;
    expect(returned).toMatchObject({
      kind: 'pix_med_return',
      amount_minor: '10000',
      related_payment_id: cashIn.id,
    });
    expect((await api.get(`/v1/sandbox/payments/${cashIn.id}`)).json().data.status).toBe('refunded');

    expect(await dispatch(world)).toBe(3);
    const got = world.receiver.received('/disputes');
    expect(got.map((r) => r.payload.type)).toEqual(['dispute.opened', 'dispute.updated', 'dispute.closed']);
    expect(got.every((r) => r.verifiedWith[0] === endpoint.secret)).toBe(true);
    expect(got[2]!.payload.data.object).toEqual(closed);
    expect(
      (await deliveries(api, `?endpoint_id=${endpoint.id}`)).every((d) => d.status === 'delivered'),
    ).toBe(true);
    await expectBooksVerified(ctx.deps);
  });

  it('closes rejected: the hold goes back to available and nothing leaves', async () => {
    const ws = await ctx.workspace('Rejected Ltda');
    const cashIn = await paidCashIn(ws.api, '5000');
    const dispute = await openDispute(ws.api, cashIn.id, { amount_minor: '3000' });
    expect(await ws.balances()).toMatchObject({ available: '2000', locked: '3000' });
    const closed = await closeDispute(ws.api, dispute.id, 'rejected');
    expect(closed).toMatchObject({ status: 'closed_rejected', return_payment_id: null });
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });
    expect(await ws.paymentCount('pix_med_return')).toBe(0);
    // Closed, the payment may be disputed again.
    expect((await openDispute(ws.api, cashIn.id)).status).toBe('open');
    await expectBooksVerified(ctx.deps);
  });

  it('holds what available has and records the rest; a return then leaves that rest owed', async () => {
    const ws = await ctx.workspace({ settlementKey: true });
    const cashIn = await paidCashIn(ws.api, '10000');
    await ws.payout('5900');
    expect(await ws.balances()).toMatchObject({ available: '4000' });
    const dispute = await openDispute(ws.api, cashIn.id);
    expect(dispute).toMatchObject({ amount_minor: '10000', held_minor: '4000', unheld_minor: '6000' });
    expect(await ws.balances()).toMatchObject({ available: '0' });
    const closed = await closeDispute(ws.api, dispute.id, 'returned');
    const medReturn = (await ws.api.get(`/v1/sandbox/payments/${closed.return_payment_id}`)).json().data;
    expect(medReturn.metadata).toMatchObject({ shortfall_minor: '6000' });
    await ctx.drainJobs();
    await expectBooksVerified(ctx.deps);
  });

  it('refuses a second open dispute on a payment, a charge not paid, and a defense past its deadline', async () => {
    const ws = await ctx.workspace('Refusals Ltda');
    const cashIn = await paidCashIn(ws.api, '1000');
    const dispute = await openDispute(ws.api, cashIn.id, {
      deadline_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const second = await ws.api.post(`/v1/sandbox/simulate/payments/${cashIn.id}/dispute`, {});
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe('conflict');
    const charge = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' })).json().data;
    const unpaid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/dispute`, {});
    expect(unpaid.statusCode).toBe(422);
    expect(unpaid.json().error).toBe('invalid_state');
    const tooMuch = await ws.api.post(`/v1/sandbox/simulate/payments/${cashIn.id}/dispute`, {
      amount_minor: '1001',
    });
    expect(tooMuch.statusCode).toBe(400);
    const unknown = await ws.api.post(`${disputeUrl(dispute.id)}/defense`, { text: 'x', files: [] });
    expect(unknown.statusCode).toBe(400);
    const badEvidence = await ws.api.post(`${disputeUrl(dispute.id)}/defense`, {
      text: 'x',
      evidence: ['http://plain.example.com/a.pdf'],
    });
    expect(badEvidence.statusCode).toBe(400);
    await ws.session.post('/v1/sandbox/test-clock/advance', { seconds: 120 });
    const late = await ws.api.post(`${disputeUrl(dispute.id)}/defense`, { text: 'Too late.' });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toContain('deadline');
    expect((await ws.api.get(disputeUrl(dispute.id))).json().data).toMatchObject({
      status: 'open',
      defense: null,
    });
  });

  it('answers 404 for a dispute that does not exist', async () => {
    const res = await api.get('/v1/sandbox/disputes/01890000-0000-7000-8000-000000000000');
    expect(res.statusCode).toBe(404);
  });
});
