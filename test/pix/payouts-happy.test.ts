/**
 * PIX payouts that go through: who is paid, how the money moves (available → locked → out, fee to
 * fee revenue), the lifecycle created → processing → completed | failed with its events, the sandbox
 * helpers, and Idempotency-Key replays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { END_TO_END_ID } from '../../src/providers/pix/end-to-end-id.ts';
import { CPF, SETTLEMENT_KEY, startWorld, type Workspace } from '../support/world.ts';

const SETTLE_MS = 1000;
const PAYOUT = '/v1/sandbox/pix/payouts';
const E2E = /^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/;

const world = await startWorld({ sandboxSettleMs: SETTLE_MS });
afterAll(() => world.close());
const ws = await world.workspace({ settlementKey: true });

/** The worker sends, the PSP takes SETTLE_MS, the poll settles. */
async function settle() {
  await world.drainJobs();
  world.clock.advance(SETTLE_MS + 100);
  await world.drainJobs();
}

const getPayment = async (id: string) => {
  const res = await ws.api.get(`/v1/sandbox/payments/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

async function sandboxTransfers(paymentId: string) {
  const { rows } = await world.db.query<{ pix_key: string | null; amount: string; direction: string }>(
    'SELECT pix_key, amount::text AS amount, direction FROM sandbox_pix_transfers WHERE payment_id = $1',
    [paymentId],
  );
  return rows;
}

describe('who is paid', () => {
  it('with an API key the settlement key is paid and shown, whatever well-formed pix_key is sent', async () => {
    await ws.cashIn('10000');
    for (const sent of [CPF, '+5511987654321', 'someone@example.com']) {
      const res = await ws.api.post(PAYOUT, {
        amount_minor: '100',
        pix_key: sent,
        receiver_name: 'Someone Else',
      });
      expect(res.statusCode, res.body).toBe(200);
      const payment = res.json().data;
      expect(payment.pix_key).toBe('tesouraria@acme.com.br');
      expect(payment.counterparty).toMatchObject({
        pix_key: 'tesouraria@acme.com.br',
        pix_key_type: 'email',
        name: SETTLEMENT_KEY.holder_name,
        document: `************${SETTLEMENT_KEY.holder_document.slice(-2)}`,
      });
      await settle();
      expect(await sandboxTransfers(payment.id)).toEqual([
        { pix_key: 'tesouraria@acme.com.br', amount: '100', direction: 'payout' },
      ]);
      expect((await getPayment(payment.id)).pix_key).toBe('tesouraria@acme.com.br');
    }
  });

  it('with a dashboard session the sent key is paid', async () => {
    await ws.cashIn('1000');
    const res = await ws.session.post(PAYOUT, {
      amount_minor: '250',
      pix_key: '+5511987654321',
      receiver_name: 'Bia',
      receiver_document: CPF,
    });
    expect(res.statusCode, res.body).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({ pix_key: '+5511987654321', kind: 'pix_cash_out', status: 'created' });
    expect(payment.counterparty).toMatchObject({
      pix_key_type: 'phone',
      name: 'Bia',
      document: '*********25',
    });
    await settle();
    expect(await sandboxTransfers(payment.id)).toEqual([
      { pix_key: '+5511987654321', amount: '250', direction: 'payout' },
    ]);
  });
});

describe('money and lifecycle', () => {
  it('available → locked at creation; then locked → out with the fee to fee revenue; created → processing → completed', async () => {
    const fresh = await world.workspace('Lifecycle', { settlementKey: true, fund: '10000' });
    const res = await fresh.api.post(PAYOUT, { amount_minor: '2500', pix_key: CPF, description: 'Saque' });
    expect(res.statusCode, res.body).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({
      status: 'created',
      amount_minor: '2500',
      fee_minor: '100',
      currency: 'BRL',
      environment: 'sandbox',
      party_id: fresh.owner.defaultPartyId,
      workspace_id: fresh.owner.workspaceId,
      description: 'Saque',
      pix_tx_id: null,
    });
    expect(await fresh.balances()).toMatchObject({ available: '7400', locked: '2600' });
    expect(await fresh.feeRevenue()).toBe(0n);

    // The worker hands it to the PSP: processing, money still locked.
    await world.drainJobs();
    expect(await getPaymentOf(fresh, payment.id)).toMatchObject({ status: 'processing', pix_tx_id: null });
    expect(await fresh.balances()).toMatchObject({ available: '7400', locked: '2600' });

    // The PSP settles after SANDBOX_SETTLE_MS.
    world.clock.advance(SETTLE_MS + 100);
    await world.drainJobs();
    const done = await getPaymentOf(fresh, payment.id);
    expect(done.status).toBe('completed');
    expect(done.pix_tx_id).toMatch(E2E);
    expect(done.pix_tx_id).toMatch(END_TO_END_ID);
    expect(done.completed_at).toEqual(expect.any(String));
    expect(await fresh.balances()).toMatchObject({ available: '7400', locked: '0' });
    expect(await fresh.feeRevenue()).toBe(100n);
    // 10000 came in through the settlement account, 2500 went out of it
    expect(await fresh.settlementNet()).toBe(-10000n + 2500n);
    expect(await fresh.eventTypes(payment.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.completed',
    ]);
    // and the events API shows them
    const listed = await fresh.api.get('/v1/sandbox/events?type=payment.completed');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(
      payment.id,
    );

    // Jobs left over (a re-run, the reconciliation sweep) change nothing.
    world.clock.advance(10 * 60_000);
    await world.drainJobs();
    await pixTransfers.reconcile(world.deps);
    expect(await fresh.balances()).toMatchObject({ available: '7400', locked: '0' });
    expect(await fresh.feeRevenue()).toBe(100n);
    expect(await fresh.eventTypes(payment.id)).toHaveLength(3);
  });

  it('an amount ending in 13 fails with sandbox_rejected and the whole amount + fee returns', async () => {
    const fresh = await world.workspace('Rejected', { settlementKey: true, fund: '5000' });
    const res = await fresh.api.post(PAYOUT, { amount_minor: '1013', pix_key: CPF });
    expect(res.statusCode, res.body).toBe(200);
    expect(await fresh.balances()).toMatchObject({ available: '3887', locked: '1113' });
    await world.drainJobs();
    world.clock.advance(SETTLE_MS + 100);
    await world.drainJobs();
    const failed = await getPaymentOf(fresh, res.json().data.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'sandbox_rejected', pix_tx_id: null });
    expect(failed.failed_at).toEqual(expect.any(String));
    expect(await fresh.balances()).toMatchObject({ available: '5000', locked: '0' });
    expect(await fresh.feeRevenue()).toBe(0n);
    expect(await fresh.eventTypes(failed.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.failed',
    ]);
  });

  it('the reconciliation sweep settles a payout whose poll was lost', async () => {
    const fresh = await world.workspace('Reconcile', { settlementKey: true, fund: '5000' });
    const { id } = await fresh.payout('1000');
    await world.drainJobs();
    expect((await getPaymentOf(fresh, id)).status).toBe('processing');
    // the poll job is lost
    await world.db.query(
      `UPDATE jobs SET done_at = now() WHERE kind = 'pix.poll' AND payload->>'paymentId' = $1`,
      [id],
    );
    world.clock.advance(6 * 60_000);
    await pixTransfers.reconcile(world.deps);
    expect((await getPaymentOf(fresh, id)).status).toBe('completed');
    expect(await fresh.balances()).toMatchObject({ available: '3900', locked: '0' });
  });
});

async function getPaymentOf(w: Workspace, id: string) {
  const res = await w.api.get(`/v1/sandbox/payments/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('sandbox helpers', () => {
  let fresh: Workspace;
  beforeAll(async () => {
    fresh = await world.workspace('Helpers', { settlementKey: true, fund: '10000' });
  });

  it('/complete settles a created payout now; the send job left behind changes nothing', async () => {
    const { id } = await fresh.payout('1000');
    const done = await fresh.api.post(`/v1/sandbox/simulate/payments/${id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ id, status: 'completed' });
    expect(done.json().data.pix_tx_id).toMatch(E2E);
    await world.drainJobs();
    expect(await fresh.balances()).toMatchObject({ available: '8900', locked: '0' });
    expect(await fresh.eventTypes(id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.completed',
    ]);
    // settled once: a second helper call is refused
    const again = await fresh.api.post(`/v1/sandbox/simulate/payments/${id}/fail`);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');
    expect(await fresh.balances()).toMatchObject({ available: '8900', locked: '0' });
  });

  it('/complete wins over the 13 rule; /fail takes a failure_reason and returns the money', async () => {
    const a = await fresh.payout('113');
    expect((await fresh.api.post(`/v1/sandbox/simulate/payments/${a.id}/complete`)).json().data.status).toBe(
      'completed',
    );
    expect(await fresh.balances()).toMatchObject({ available: '8687', locked: '0' });

    const b = await fresh.payout('500');
    await world.drainJobs(); // processing at the PSP
    expect((await getPaymentOf(fresh, b.id)).status).toBe('processing');
    const failed = await fresh.api.post(`/v1/sandbox/simulate/payments/${b.id}/fail`, {
      failure_reason: 'account_closed',
    });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json().data).toMatchObject({ status: 'failed', failure_reason: 'account_closed' });
    expect(await fresh.balances()).toMatchObject({ available: '8687', locked: '0' });
    // the PSP's own settlement later does not undo the failure
    world.clock.advance(SETTLE_MS + 100);
    await world.drainJobs();
    expect((await getPaymentOf(fresh, b.id)).status).toBe('failed');
    expect(await fresh.balances()).toMatchObject({ available: '8687', locked: '0' });

    const c = await fresh.payout('500');
    const failedDefault = await fresh.api.post(`/v1/sandbox/simulate/payments/${c.id}/fail`);
    expect(failedDefault.statusCode, failedDefault.body).toBe(200);
    expect(failedDefault.json().data).toMatchObject({ status: 'failed', failure_reason: 'sandbox_failed' });
    expect(await fresh.balances()).toMatchObject({ available: '8687', locked: '0' });
  });

  it('helpers on a live path → 404; an unknown payment → 404', async () => {
    const live = await fresh.session.post(
      `/v1/live/simulate/payments/${fresh.owner.defaultPartyId}/complete`,
    );
    expect(live.statusCode).toBe(404);
    const unknown = await fresh.api.post(
      '/v1/sandbox/simulate/payments/0190f5a2-0000-7000-8000-000000000000/complete',
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
  });
});

describe('Idempotency-Key', () => {
  let fresh: Workspace;
  beforeAll(async () => {
    fresh = await world.workspace('Idempotent', { settlementKey: true, fund: '10000' });
  });

  it('a replay returns the same payment with Idempotency-Replayed: true and never debits twice', async () => {
    const body = { amount_minor: '1000', pix_key: CPF };
    const headers = { 'idempotency-key': 'payout-0001' };
    const first = await fresh.api.post(PAYOUT, body, headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const second = await fresh.api.post(PAYOUT, body, headers);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(second.json().data).toEqual(first.json().data);
    expect(first.json().data.idempotency_key).toBe('payout-0001');
    expect(await fresh.paymentCount()).toBe(1);
    expect(await fresh.balances()).toMatchObject({ available: '8900', locked: '1100' });

    // the same key after settlement (a late retry) still replays and never pays again
    await settle();
    const late = await fresh.api.post(PAYOUT, body, headers);
    expect(late.statusCode).toBe(200);
    expect(late.headers['idempotency-replayed']).toBe('true');
    expect(late.json().data.id).toBe(first.json().data.id);
    await settle();
    expect(await fresh.paymentCount()).toBe(1);
    expect(await fresh.balances()).toMatchObject({ available: '8900', locked: '0' });
    expect(await fresh.feeRevenue()).toBe(100n);
    const { rows } = await world.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sandbox_pix_transfers WHERE payment_id = $1',
      [first.json().data.id],
    );
    expect(rows[0]!.n).toBe(1);

    // the idempotency record of a payout survives the retention sweep
    const { sweepIdempotencyKeys } = await import('../../src/platform/idempotency.ts');
    await world.db.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '3 days' WHERE workspace_id = $1",
      [fresh.owner.workspaceId],
    );
    await sweepIdempotencyKeys(world.deps);
    const after = await fresh.api.post(PAYOUT, body, headers);
    expect(after.headers['idempotency-replayed']).toBe('true');
    expect(await fresh.paymentCount()).toBe(1);
  });

  it('the same key with a different body → 409 idempotency_key_reuse, no second debit', async () => {
    const headers = { 'idempotency-key': 'payout-0002' };
    const first = await fresh.api.post(PAYOUT, { amount_minor: '500', pix_key: CPF }, headers);
    expect(first.statusCode).toBe(200);
    const before = await fresh.balances();
    const count = await fresh.paymentCount();
    for (const body of [
      { amount_minor: '501', pix_key: CPF },
      { amount_minor: '500', pix_key: '+5511987654321' },
      { amount_minor: '500', pix_key: CPF, description: 'x' },
    ]) {
      const res = await fresh.api.post(PAYOUT, body, headers);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toBe('idempotency_key_reuse');
    }
    expect(await fresh.balances()).toEqual(before);
    expect(await fresh.paymentCount()).toBe(count);
  });

  it('a refused payout does not use up its key: the retry after a cash-in goes through', async () => {
    const broke = await world.workspace('Broke', { settlementKey: true });
    const headers = { 'idempotency-key': 'payout-0003' };
    const refused = await broke.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }, headers);
    expect(refused.statusCode).toBe(422);
    await broke.cashIn('1100');
    const ok = await broke.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }, headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['idempotency-replayed']).toBeUndefined();
    expect(await broke.balances()).toMatchObject({ available: '0', locked: '1100' });
  });

  it('keys are per workspace: the same key in two workspaces makes two payouts', async () => {
    const other = await world.workspace('Other', { settlementKey: true, fund: '2000' });
    const headers = { 'idempotency-key': 'payout-0001' };
    const res = await other.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotency-replayed']).toBeUndefined();
    expect(await other.balances()).toMatchObject({ available: '900', locked: '1100' });
  });
});
