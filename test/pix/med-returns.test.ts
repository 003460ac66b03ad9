/**
 * MED returns in sandbox: the PSP returns all or part of a paid charge; the party is debited once,
 * whole; what its balance cannot cover it owes, visible in its balances, and its next credits pay
 * it first; the charge shows the return, and the books verify.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { startWorld } from '../support/world.ts';
import { paidSandboxCharge } from './sandbox-charges.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

const paidCharge = (name: string, amount: string) => paidSandboxCharge(world, amount, name);

const owedOf = async (workspaceId: string) =>
  (
    await world.db.query<{ owed: string }>(
      'SELECT coalesce(sum(outstanding_minor), 0)::text AS owed FROM pix_med_returns WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.owed;

describe('sandbox MED returns', () => {
  it('a partial return debits the party once and leaves the charge completed, with payment.updated', async () => {
    const { ws, charge } = await paidCharge('MED partial', '10000');
    const res = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/med-return`, {
      amount_minor: '4000',
      natureza: 'MED_OPERACIONAL',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      kind: 'pix_med_return',
      status: 'completed',
      amount_minor: '4000',
      related_payment_id: charge.id,
      metadata: { natureza: 'MED_OPERACIONAL', shortfall_minor: '0' },
    });
    expect(await ws.balances()).toMatchObject({ available: '6000' });
    expect((await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data.status).toBe('completed');
    expect(await ws.eventTypes(charge.id)).toContain('payment.updated');
    // What is left to refund is what the PSP did not return.
    const refund = await ws.api.post(`/v1/sandbox/payments/${charge.id}/refund`, { amount_minor: '6001' });
    expect(refund.json().error).toBe('invalid_amount');
    await expectBooksVerified(world.deps);
  });

  it('a return of more than the party has keeps the shortfall owed, paid by its next credits', async () => {
    const { ws, charge } = await paidCharge('MED shortfall', '10000');
    await ws.setSettlementKey();
    await ws.payout('7000');
    await world.drainJobs();
    expect(await ws.balances()).toMatchObject({ available: '2900' });
    const res = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/med-return`, {
      natureza: 'MED_FRAUDE',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ amount_minor: '10000', metadata: { shortfall_minor: '7100' } });
    expect(await ws.balances()).toMatchObject({ available: '0' });
    expect(await owedOf(ws.owner.workspaceId)).toBe('7100');
    const balances = (await ws.api.get('/v1/sandbox/balances?currency=BRL')).json().data;
    expect(balances.find((b: { kind: string }) => b.kind === 'available')).toMatchObject({
      balance_minor: '0',
      owed_minor: '7100',
    });
    expect((await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data.status).toBe('refunded');
    await expectBooksVerified(world.deps);

    // A second return of the same charge: nothing left.
    const again = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/med-return`, {});
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');

    // Next credits pay the debt first.
    const first = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '5000' });
    expect(first.statusCode, first.body).toBe(200);
    expect(await ws.balances()).toMatchObject({ available: '0' });
    expect(await owedOf(ws.owner.workspaceId)).toBe('2100');
    await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '3000' });
    expect(await ws.balances()).toMatchObject({ available: '900' });
    expect(await owedOf(ws.owner.workspaceId)).toBe('0');
    await expectBooksVerified(world.deps);
  });

  it('a return of an unpaid charge is refused and moves nothing', async () => {
    const ws = await world.workspace('MED unpaid');
    const created = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '500' })).json().data;
    const res = await ws.api.post(`/v1/sandbox/simulate/payments/${created.id}/med-return`, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    expect(await ws.paymentCount('pix_med_return')).toBe(0);
  });
});

describe('sandbox PIX without a charge', () => {
  it('is held unassigned, listed, then assigned to a party or returned whole', async () => {
    const ws = await world.workspace('Sandbox unassigned');
    const sent = await ws.api.post('/v1/sandbox/simulate/pix/unassigned', {
      amount_minor: '2500',
      payer_info: 'sem cobrança',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ status: 'unassigned', amount_minor: '2500' });
    const other = (await ws.api.post('/v1/sandbox/simulate/pix/unassigned', { amount_minor: '700' })).json()
      .data;
    const listed = (await ws.api.get('/v1/sandbox/pix/unassigned')).json().data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([other.id, sent.json().data.id]);
    expect(await ws.balances()).toMatchObject({ available: '0' });

    const assigned = await ws.api.post(`/v1/sandbox/pix/unassigned/${sent.json().data.id}/assign`, {
      party_id: ws.owner.defaultPartyId,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ws.balances()).toMatchObject({ available: '2500' });
    const payment = (await ws.api.get(`/v1/sandbox/payments/${assigned.json().data.payment_id}`)).json().data;
    expect(payment).toMatchObject({ kind: 'pix_cash_in', status: 'completed', amount_minor: '2500' });

    const returned = await ws.api.post(`/v1/sandbox/pix/unassigned/${other.id}/return`);
    expect(returned.statusCode, returned.body).toBe(200);
    await world.drainJobs();
    const refund = (await ws.api.get(`/v1/sandbox/payments/${returned.json().data.refund_id}`)).json().data;
    expect(refund).toMatchObject({ kind: 'pix_refund', status: 'completed', amount_minor: '700' });
    expect(await ws.balances()).toMatchObject({ available: '2500', locked: '0' });
    expect((await ws.api.get(`/v1/sandbox/pix/unassigned/${other.id}`)).json().data.status).toBe('returned');
    await expectBooksVerified(world.deps);
  });
});
