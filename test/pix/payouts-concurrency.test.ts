/**
 * Payouts under concurrency, on PostgreSQL only (PGlite runs one statement at a time, so nothing
 * there is concurrent): retries of one Idempotency-Key racing each other pay once; payouts racing
 * for one balance never overdraw it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../support/database.ts';
import { CPF, startWorld, type World } from '../support/world.ts';

const PAYOUT = '/v1/sandbox/pix/payouts';

describe.skipIf(!onRealPostgres())('payouts under concurrency (PostgreSQL)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ sandboxSettleMs: 0 });
  });
  afterAll(() => world.close());

  it('12 concurrent retries of one Idempotency-Key create one payment, one debit, one transfer', async () => {
    const ws = await world.workspace('Same key', { settlementKey: true, fund: '10000' });
    const journalsBefore = await ws.journalCount();
    const headers = { 'idempotency-key': 'race-1' };
    const body = { amount_minor: '1000', pix_key: CPF };
    const responses = await Promise.all(Array.from({ length: 12 }, () => ws.api.post(PAYOUT, body, headers)));
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    const ids = new Set(responses.map((res) => res.json().data.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((res) => res.headers['idempotency-replayed'] === 'true')).toHaveLength(11);
    expect(await ws.paymentCount()).toBe(1);
    expect(await ws.journalCount()).toBe(journalsBefore + 1);
    expect(await ws.balances()).toMatchObject({ available: '8900', locked: '1100' });

    // the workers, run concurrently as several processes would, send it once
    await Promise.all(Array.from({ length: 4 }, () => world.drainJobs()));
    const [id] = [...ids];
    const { rows } = await world.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sandbox_pix_transfers WHERE payment_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(1);
    expect(await ws.balances()).toMatchObject({ available: '8900', locked: '0' });
    expect(await ws.feeRevenue()).toBe(100n);
    expect(await ws.eventTypes(id)).toEqual(['payment.created', 'payment.processing', 'payment.completed']);
  });

  it('2N concurrent payouts with different keys on a balance for N: exactly N pass, none overdraws', async () => {
    const N = 8;
    const ws = await world.workspace('Different keys', { settlementKey: true, fund: String(N * 1100) });
    const responses = await Promise.all(
      Array.from({ length: 2 * N }, (_, i) =>
        ws.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }, { 'idempotency-key': `race-2-${i}` }),
      ),
    );
    const statuses = responses.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    expect(statuses.filter((s) => s === 422)).toHaveLength(N);
    for (const res of responses.filter((r) => r.statusCode === 422))
      expect(res.json().error).toBe('insufficient_balance');
    expect(await ws.paymentCount()).toBe(N);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: String(N * 1100) });
    await Promise.all(Array.from({ length: 3 }, () => world.drainJobs()));
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '0' });
    expect(await ws.feeRevenue()).toBe(BigInt(N * 100));
  });

  it('payouts without an Idempotency-Key racing for one balance never overdraw either', async () => {
    const ws = await world.workspace('No keys', { settlementKey: true, fund: '5500' });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => ws.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF })),
    );
    expect(responses.filter((res) => res.statusCode === 200)).toHaveLength(5);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '5500' });
  });
});
