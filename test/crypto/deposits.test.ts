/**
 * Deposits: the sandbox helper and the deposit watcher credit an incoming transfer through the same
 * path (recordDeposit), once per (network, tx hash, log index), to the party of the custodial wallet it
 * reached; custody of the workspace → the party's available balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDeposit, watchDeposits } from '../../src/modules/crypto/deposits.ts';
import { isTxHash } from '../../src/providers/chain/tx-hash.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type CryptoWorkspace, cryptoWorkspace, drainJobs, OUTSIDE, SEND, type Wallet } from './support.ts';

const SETTLE_MS = 1000;
const DEPOSIT = '/v1/sandbox/simulate/crypto/deposit';
let ctx: TestContext;
let ws: CryptoWorkspace;
let tron: Wallet;

beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: SETTLE_MS });
  ws = await cryptoWorkspace(ctx);
  tron = await ws.wallet('tron');
});
afterAll(() => ctx.close());

const depositCount = async (workspaceId = ws.owner.workspaceId) =>
  (
    await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM crypto_deposits WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.n;

describe('the sandbox deposit helper', () => {
  it('credits the wallet’s party at once: a completed crypto_deposit, custody → available', async () => {
    const before = await ws.coins('USDC');
    const res = await ws.api.post(DEPOSIT, { wallet_id: tron.id, currency: 'USDC', amount_minor: '2500000' });
    expect(res.statusCode, res.body).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({
      kind: 'crypto_deposit',
      status: 'completed',
      amount_minor: '2500000',
      currency: 'USDC',
      network: 'tron',
      to_address: tron.address,
      wallet_id: tron.id,
      party_id: ws.owner.defaultPartyId,
      fee_minor: '0',
    });
    expect(isTxHash('tron', payment.tx_hash)).toBe(true);
    expect(BigInt((await ws.coins('USDC')).available!) - BigInt(before.available!)).toBe(2_500_000n);
    expect(await ws.systemNet('crypto_custody', 'USDC')).toBe(-2_500_000n);
    expect(await ws.eventTypes(payment.id)).toEqual(['payment.completed']);
  });

  it('the watcher, seeing that transfer on chain later, does not credit it again', async () => {
    const before = await ws.coins('USDC');
    const deposits = await depositCount();
    ctx.clock.advance(SETTLE_MS + 100);
    await watchDeposits(ctx.deps);
    await watchDeposits(ctx.deps);
    expect(await ws.coins('USDC')).toEqual(before);
    expect(await depositCount()).toBe(deposits);
  });

  it('an Idempotency-Key replays the deposit and makes no second transfer on chain; another body is 409', async () => {
    const headers = { 'idempotency-key': 'deposit-1' };
    const body = { wallet_id: tron.id, currency: 'USDT', amount_minor: '1000000' };
    const transfers = async () =>
      (
        await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sandbox_chain_transfers WHERE to_address = $1',
          [tron.address],
        )
      ).rows[0]!.n;
    const before = await ws.coins();
    const first = await ws.api.post(DEPOSIT, body, headers);
    const chainAfterFirst = await transfers();
    const again = await ws.api.post(DEPOSIT, body, headers);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    const other = await ws.api.post(DEPOSIT, { ...body, amount_minor: '7' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reuse');
    expect(await transfers()).toBe(chainAfterFirst);
    ctx.clock.advance(SETTLE_MS + 100);
    await watchDeposits(ctx.deps);
    expect(BigInt((await ws.coins()).available!) - BigInt(before.available!)).toBe(1_000_000n);
  });

  it.each([
    ['an unknown wallet', { wallet_id: '01890000-0000-7000-8000-000000000000' }, 404, 'not_found'],
    ['BRL', { currency: 'BRL' }, 400, 'unsupported_currency'],
    ['amount 0', { amount_minor: '0' }, 400, 'invalid_amount'],
    ['no wallet_id', { wallet_id: undefined }, 400, 'invalid_request'],
  ])('%s → %i %s, nothing credited', async (_name, override, status, code) => {
    const before = await ws.coins();
    const res = await ws.api.post(DEPOSIT, {
      wallet_id: tron.id,
      currency: 'USDT',
      amount_minor: '10',
      ...override,
    });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toBe(code);
    expect(await ws.coins()).toEqual(before);
  });

  it('a watch-only wallet: 422 invalid_state (its coins are not in custody); another tenant’s wallet: 404', async () => {
    const watched = await ws.wallet('solana', { address: OUTSIDE.solana });
    const res = await ws.api.post(DEPOSIT, { wallet_id: watched.id, currency: 'USDT', amount_minor: '10' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    const other = await cryptoWorkspace(ctx, 'Outra');
    const theirs = await other.wallet('tron');
    const cross = await ws.api.post(DEPOSIT, { wallet_id: theirs.id, currency: 'USDT', amount_minor: '10' });
    expect(cross.statusCode).toBe(404);
    expect(await other.coins()).toMatchObject({ available: '0' });
  });

  it('is not on the live path (404)', async () => {
    const res = await ws.session.post('/v1/live/simulate/crypto/deposit', {
      wallet_id: tron.id,
      currency: 'USDT',
      amount_minor: '1',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the deposit watcher', () => {
  it('credits a transfer it finds on chain, once, however many rounds see it', async () => {
    const fresh = await cryptoWorkspace(ctx, 'Vigia');
    const wallet = await fresh.wallet('base');
    await ctx.deps.providers.sandbox.chain.simulateDeposit({
      network: 'base',
      currency: 'USDT',
      toAddress: wallet.address,
      amountMinor: 42_000_000n,
    });
    await watchDeposits(ctx.deps); // not final yet
    expect(await fresh.coins()).toMatchObject({ available: '0' });
    ctx.clock.advance(SETTLE_MS + 100);
    expect(await watchDeposits(ctx.deps)).toBeGreaterThanOrEqual(1);
    await watchDeposits(ctx.deps);
    expect(await fresh.coins()).toMatchObject({ available: '42000000' });
    const txs = (await fresh.api.get(`/v1/sandbox/wallets/${wallet.id}/transactions`)).json().data;
    expect(txs).toHaveLength(1);
    expect(txs[0]).toMatchObject({ kind: 'crypto_deposit', network: 'base', amount_minor: '42000000' });
    // Only the base row of the EVM address got it.
    const polygonRow = (await fresh.api.get('/v1/sandbox/wallets?network=polygon')).json().data[0];
    expect((await fresh.api.get(`/v1/sandbox/wallets/${polygonRow.id}/transactions`)).json().data).toEqual(
      [],
    );
  });

  it('recordDeposit is idempotent on (network, tx hash, log index) and ignores addresses that are not ours', async () => {
    const incoming = {
      network: 'tron' as const,
      currency: 'USDT' as const,
      txHash: 'ab'.repeat(32),
      logIndex: 3,
      fromAddress: OUTSIDE.tron,
      toAddress: tron.address,
      amountMinor: 5n,
      confirmedAt: ctx.clock.now(),
    };
    const first = await ctx.db.transaction((tx) => recordDeposit(tx, 'sandbox', incoming, ctx.clock.now()));
    const second = await ctx.db.transaction((tx) => recordDeposit(tx, 'sandbox', incoming, ctx.clock.now()));
    expect(first?.created).toBe(true);
    expect(second).toMatchObject({ created: false, payment: { id: first!.payment.id } });
    const another = await ctx.db.transaction((tx) =>
      recordDeposit(tx, 'sandbox', { ...incoming, logIndex: 4 }, ctx.clock.now()),
    );
    expect(another?.created).toBe(true);
    const stranger = await ctx.db.transaction((tx) =>
      recordDeposit(tx, 'sandbox', { ...incoming, toAddress: OUTSIDE.tron, logIndex: 5 }, ctx.clock.now()),
    );
    expect(stranger).toBeUndefined();
    // The same hash in live is another chain's transfer: not this wallet's (it is a sandbox wallet).
    expect(
      await ctx.db.transaction((tx) => recordDeposit(tx, 'live', incoming, ctx.clock.now())),
    ).toBeUndefined();
  });

  it('a send between two workspaces’ wallets: debited from one, credited to the other by the watcher', async () => {
    const alice = await cryptoWorkspace(ctx, 'Alice');
    const bob = await cryptoWorkspace(ctx, 'Bob');
    const from = await alice.wallet('solana');
    const to = await bob.wallet('solana');
    await alice.deposit(from.id, '10000000');
    await alice.whitelist('solana', to.address);
    const res = await alice.api.post(SEND, {
      amount_minor: '4000000',
      to_address: to.address,
      network: 'solana',
      currency: 'USDT',
    });
    expect(res.statusCode, res.body).toBe(200);
    await drainJobs(ctx);
    ctx.clock.advance(SETTLE_MS + 100);
    await drainJobs(ctx);
    await watchDeposits(ctx.deps);
    expect(await alice.coins()).toMatchObject({ available: '5950000', locked: '0' });
    expect(await bob.coins()).toMatchObject({ available: '4000000' });
    // Each workspace's books: Alice's custody gave 4 USDT, Bob's took 4 USDT in.
    expect(await alice.systemNet('crypto_custody')).toBe(-10_000_000n + 4_000_000n);
    expect(await bob.systemNet('crypto_custody')).toBe(-4_000_000n);
    const payment = (await alice.api.get(`/v1/sandbox/payments/${res.json().data.id}`)).json().data;
    const credited = (await bob.api.get(`/v1/sandbox/wallets/${to.id}/transactions`)).json().data[0];
    expect(credited.tx_hash).toBe(payment.tx_hash);
    expect(credited.from_address).toBe(from.address);
  });
});
