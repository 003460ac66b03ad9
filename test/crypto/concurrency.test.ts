/**
 * Crypto under concurrency, on PostgreSQL only (PGlite runs one statement at a time): retries of one
 * Idempotency-Key racing each other send once; sends racing for one balance never overdraw it;
 * watchers racing over one deposit credit it once; primaries racing leave one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDeposit } from '../../src/modules/crypto/deposits.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { cryptoWorkspace, drainJobs, OUTSIDE, SEND } from './support.ts';

const BODY = { to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
const FEE = 50_000n;

describe.skipIf(!onRealPostgres())('crypto under concurrency (PostgreSQL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp({ sandboxSettleMs: 0 });
  });
  afterAll(() => ctx.close());

  async function funded(name: string, amount: string) {
    const ws = await cryptoWorkspace(ctx, name);
    const wallet = await ws.wallet('polygon');
    await ws.deposit(wallet.id, amount);
    await ws.whitelist('polygon', OUTSIDE.evm);
    return { ws, wallet };
  }

  it('12 concurrent retries of one Idempotency-Key: one payment, one debit, one chain transfer', async () => {
    const { ws } = await funded('Mesma Chave', '10000000');
    const headers = { 'idempotency-key': 'race-send' };
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => ws.api.post(SEND, { ...BODY, amount_minor: '1000000' }, headers)),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    const ids = new Set(responses.map((res) => res.json().data.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((res) => res.headers['idempotency-replayed'] === 'true')).toHaveLength(11);
    expect(await ws.paymentCount('crypto_send')).toBe(1);
    expect(await ws.coins()).toMatchObject({
      available: String(9_000_000n - FEE),
      locked: String(1_000_000n + FEE),
    });
    await Promise.all(Array.from({ length: 4 }, () => drainJobs(ctx)));
    const [id] = [...ids];
    const { rows } = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sandbox_chain_transfers WHERE payment_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(1);
    expect(await ws.coins()).toMatchObject({ available: String(9_000_000n - FEE), locked: '0' });
    expect(await ws.eventTypes(id)).toEqual(['payment.created', 'payment.processing', 'payment.completed']);
  });

  it('2N concurrent sends on a balance for N: exactly N pass, the rest 422, never below zero', async () => {
    const N = 6;
    const each = 1_000_000n + FEE;
    const { ws } = await funded('Corrida', String(BigInt(N) * each));
    const responses = await Promise.all(
      Array.from({ length: 2 * N }, (_, i) =>
        ws.api.post(
          SEND,
          { ...BODY, amount_minor: '1000000' },
          i % 2 ? { 'idempotency-key': `race-${i}` } : {},
        ),
      ),
    );
    expect(responses.filter((res) => res.statusCode === 200)).toHaveLength(N);
    const refused = responses.filter((res) => res.statusCode !== 200);
    expect(refused).toHaveLength(N);
    for (const res of refused) expect(res.json().error).toBe('insufficient_balance');
    expect(await ws.paymentCount('crypto_send')).toBe(N);
    expect(await ws.coins()).toMatchObject({ available: '0', locked: String(BigInt(N) * each) });
    await Promise.all(Array.from({ length: 3 }, () => drainJobs(ctx)));
    expect(await ws.coins()).toMatchObject({ available: '0', locked: '0' });
    expect(await ws.systemNet('fee_revenue')).toBe(BigInt(N) * FEE);
  });

  it('watchers racing over one incoming transfer credit it once', async () => {
    const ws = await cryptoWorkspace(ctx, 'Vigias');
    const wallet = await ws.wallet('tron');
    const incoming = {
      network: 'tron' as const,
      currency: 'USDT' as const,
      txHash: 'cd'.repeat(32),
      logIndex: 0,
      fromAddress: OUTSIDE.tron,
      toAddress: wallet.address,
      amountMinor: 7_000_000n,
      confirmedAt: ctx.clock.now(),
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.db.transaction((tx) => recordDeposit(tx, 'sandbox', incoming, ctx.clock.now())),
      ),
    );
    expect(results.filter((r) => r?.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r?.payment.id)).size).toBe(1);
    expect(await ws.coins()).toMatchObject({ available: '7000000' });
    expect(await ws.paymentCount('crypto_deposit')).toBe(1);
  });

  it('concurrent primary wallets on one network leave exactly one primary', async () => {
    const ws = await cryptoWorkspace(ctx, 'Primarias');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        ws.api.post('/v1/sandbox/wallets', { network: 'solana', is_primary: true }),
      ),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    const { rows } = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM wallets WHERE workspace_id = $1 AND network = 'solana' AND is_primary",
      [ws.owner.workspaceId],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
