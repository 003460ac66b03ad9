/**
 * Refunds of a paid PIX charge: partial and full, never more than received, within 90 days, through
 * the provider like a payout; the original becomes `refunded` once refunded in full; a failed
 * refund gives the money back.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.ts';
import { CPF, startWorld, type Workspace } from '../support/world.ts';
import { paidSandboxCharge } from './sandbox-charges.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

/** A workspace with a charge of `amount` paid by a buyer. */
const paidCharge = (amount: string, name = 'Refunds') => paidSandboxCharge(world, amount, name);

const refund = (
  ws: Workspace,
  id: string,
  body: Record<string, unknown> = {},
  headers?: Record<string, string>,
) => ws.api.post(`/v1/sandbox/payments/${id}/refund`, body, headers);
const statusOf = async (ws: Workspace, id: string) =>
  (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status;

describe('refunds', () => {
  it('partial then full: money locked then out, the original `refunded` once all of it came back', async () => {
    const { ws, charge } = await paidCharge('10000');
    expect(await ws.balances()).toMatchObject({ available: '10000' });

    const first = await refund(ws, charge.id, { amount_minor: '3000', description: 'Item devolvido' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      kind: 'pix_refund',
      status: 'created',
      amount_minor: '3000',
      fee_minor: '0',
      related_payment_id: charge.id,
      description: 'Item devolvido',
    });
    expect(await ws.balances()).toMatchObject({ available: '7000', locked: '3000' });
    // what is left to refund while the first is in flight: 7000, not more
    const tooMuch = await refund(ws, charge.id, { amount_minor: '7001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe('invalid_amount');

    await world.drainJobs();
    expect(await statusOf(ws, first.json().data.id)).toBe('completed');
    expect(await statusOf(ws, charge.id)).toBe('completed');
    expect(await ws.balances()).toMatchObject({ available: '7000', locked: '0' });
    const { rows } = await world.db.query<{ direction: string; amount: string }>(
      'SELECT direction, amount::text AS amount FROM sandbox_pix_transfers WHERE payment_id = $1',
      [first.json().data.id],
    );
    expect(rows).toEqual([{ direction: 'refund', amount: '3000' }]);

    // no amount: the rest
    const rest = await refund(ws, charge.id);
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().data.amount_minor).toBe('7000');
    await world.drainJobs();
    expect(await statusOf(ws, rest.json().data.id)).toBe('completed');
    expect(await statusOf(ws, charge.id)).toBe('refunded');
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '0' });
    expect(await ws.settlementNet()).toBe(0n);
    expect(await ws.eventTypes(charge.id)).toEqual([
      'payment.created',
      'payment.completed',
      'payment.refunded',
    ]);
    expect(await ws.eventTypes(rest.json().data.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.completed',
    ]);

    // nothing left: a refunded payment cannot be refunded again
    const again = await refund(ws, charge.id, { amount_minor: '1' });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');
  });

  it('more than received → 400 invalid_amount; zero → 400; nothing moved', async () => {
    const { ws, charge } = await paidCharge('5000', 'Over refund');
    for (const amount of ['5001', '0', '99999999']) {
      const res = await refund(ws, charge.id, { amount_minor: amount });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_amount');
    }
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });
    expect(await ws.paymentCount('pix_refund')).toBe(0);
  });

  it('a failed refund returns the money and frees the amount to refund again', async () => {
    const { ws, charge } = await paidCharge('5000', 'Failed refund');
    const res = await refund(ws, charge.id, { amount_minor: '5000' });
    expect(res.statusCode).toBe(200);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '5000' });
    const failed = await ws.api.post(`/v1/sandbox/simulate/payments/${res.json().data.id}/fail`, {
      failure_reason: 'account_closed',
    });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json().data).toMatchObject({ status: 'failed', failure_reason: 'account_closed' });
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });
    expect(await statusOf(ws, charge.id)).toBe('completed');
    await world.drainJobs();
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });

    const retry = await refund(ws, charge.id);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data.amount_minor).toBe('5000');
    await world.drainJobs();
    expect(await statusOf(ws, charge.id)).toBe('refunded');
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '0' });
  });

  it('a refund the balance cannot cover (the money was paid out) → 422 insufficient_balance', async () => {
    const { ws, charge } = await paidCharge('5000', 'Spent');
    await ws.setSettlementKey();
    expect(
      (await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '4000', pix_key: CPF })).statusCode,
    ).toBe(200);
    const res = await refund(ws, charge.id, { amount_minor: '1000' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'insufficient_balance',
      details: [
        { field: 'body.amount_minor', issue: 'is more than the available balance can cover, fee included' },
      ],
    });
    expect(await ws.paymentCount('pix_refund')).toBe(0);
  });

  it('only a completed cash-in can be refunded: a payout, an unpaid or expired charge → 422', async () => {
    const { ws } = await paidCharge('5000', 'Not refundable');
    await ws.setSettlementKey();
    const payout = await ws.payout('1000');
    await world.drainJobs();
    const unpaid = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' })).json().data;
    const expired = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' })).json().data;
    await ws.api.post(`/v1/sandbox/simulate/payments/${expired.id}/expire`);
    for (const id of [payout.id, unpaid.id, expired.id]) {
      const res = await refund(ws, id, { amount_minor: '100' });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe('invalid_state');
    }
    // a refund cannot be refunded either
    const { ws: w2, charge } = await paidCharge('1000', 'Refund of refund');
    const r = (await refund(w2, charge.id, { amount_minor: '500' })).json().data;
    await world.drainJobs();
    const rr = await refund(w2, r.id);
    expect(rr.statusCode).toBe(422);
  });

  it('unknown id, another workspace, another party → 404', async () => {
    const { ws, charge } = await paidCharge('5000', 'Scope');
    expect((await refund(ws, newId())).statusCode).toBe(404);
    const other = await world.workspace('Someone else');
    expect((await refund(other, charge.id)).statusCode).toBe(404);
    const scoped = await ws.keyFor(await ws.addParty('Bia'));
    const res = await scoped.post(`/v1/sandbox/payments/${charge.id}/refund`, {});
    expect(res.statusCode).toBe(404);
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });
  });

  it('an Idempotency-Key replays the refund and never refunds twice', async () => {
    const { ws, charge } = await paidCharge('5000', 'Idempotent refund');
    const headers = { 'idempotency-key': 'refund-1' };
    const first = await refund(ws, charge.id, { amount_minor: '1000' }, headers);
    const second = await refund(ws, charge.id, { amount_minor: '1000' }, headers);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(second.json().data.id).toBe(first.json().data.id);
    expect(await ws.paymentCount('pix_refund')).toBe(1);
    expect(await ws.balances()).toMatchObject({ available: '4000', locked: '1000' });
  });

  // Last: it moves the clock 90 days, past every session's life.
  it('only within 90 days of payment → 422 invalid_state', async () => {
    const { ws, charge } = await paidCharge('5000', 'Late');
    world.clock.advance(89 * 24 * 3600_000);
    const inTime = await refund(ws, charge.id, { amount_minor: '1000' });
    expect(inTime.statusCode, inTime.body).toBe(200);
    world.clock.advance(1 * 24 * 3600_000 + 60_000);
    const late = await refund(ws, charge.id, { amount_minor: '1000' });
    expect(late.statusCode, late.body).toBe(422);
    expect(late.json().error).toBe('invalid_state');
    expect(await ws.paymentCount('pix_refund')).toBe(1);
  });
});

describe('sandbox helpers when the PSP settles at once (SANDBOX_SETTLE_MS=0)', () => {
  it('/fail fails a created payout and /complete completes one ending in 13', async () => {
    const ws = await world.workspace('Helpers at once', { settlementKey: true, fund: '5000' });
    const a = await ws.payout('1000');
    const failed = await ws.api.post(`/v1/sandbox/simulate/payments/${a.id}/fail`, {
      failure_reason: 'account_closed',
    });
    expect(failed.json().data).toMatchObject({ status: 'failed', failure_reason: 'account_closed' });
    expect(await ws.balances()).toMatchObject({ available: '5000', locked: '0' });

    const b = await ws.payout('1013');
    const completed = await ws.api.post(`/v1/sandbox/simulate/payments/${b.id}/complete`);
    expect(completed.json().data).toMatchObject({ status: 'completed', failure_reason: null });
    await world.drainJobs();
    expect(await ws.balances()).toMatchObject({ available: '3887', locked: '0' });
    expect(await ws.feeRevenue()).toBe(100n);
  });
});
