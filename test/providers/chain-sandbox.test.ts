import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import type { Clock } from '../../src/platform/context.ts';
import {
  evmAddressFromBytes,
  solanaAddressFromPublicKey,
  tronAddressFromBytes,
} from '../../src/providers/chain/addresses.ts';
import { NETWORKS, type Network, networkFamily } from '../../src/providers/chain/networks.ts';
import { SANDBOX_REVERT_REASON, SandboxChainProvider } from '../../src/providers/chain/sandbox.ts';
import { isTxHash } from '../../src/providers/chain/tx-hash.ts';
import { createTestDatabase } from '../support/database.ts';

/** Stands still until told to move, so settle times are exact. */
class ManualClock implements Clock {
  private at = Date.now();
  now = () => new Date(this.at);
  advance(ms: number) {
    this.at += ms;
  }
}

const SETTLE_MS = 60_000;
let db: Database;
let clock: ManualClock;
let chain: SandboxChainProvider;
beforeAll(async () => {
  db = await createTestDatabase();
  clock = new ManualClock();
  chain = new SandboxChainProvider(db, clock, SETTLE_MS);
});
afterAll(() => db.close());

/** A fresh address on a network. */
function address(network: Network): string {
  const bytes = (n: number) => new Uint8Array(randomBytes(n));
  const family = networkFamily(network);
  if (family === 'solana') return solanaAddressFromPublicKey(bytes(32));
  return family === 'evm' ? evmAddressFromBytes(bytes(20)) : tronAddressFromBytes(bytes(20));
}

const send = (
  network: Network,
  amountMinor: bigint,
  overrides: { toAddress?: string; paymentId?: string } = {},
) =>
  chain.sendTransfer({
    paymentId: overrides.paymentId ?? randomUUID(),
    network,
    currency: 'USDT',
    fromAddress: address(network),
    toAddress: overrides.toAddress ?? address(network),
    amountMinor,
  });

const rowCount = async (paymentId: string) =>
  (
    await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sandbox_chain_transfers WHERE payment_id = $1',
      [paymentId],
    )
  ).rows[0]!.n;

describe('SandboxChainProvider sends', () => {
  it.each(NETWORKS)(
    'broadcasts on %s with a tx hash in its format and confirms after settleMs',
    async (network) => {
      const paymentId = randomUUID();
      const sent = await send(network, 1_000_000n, { paymentId });
      expect(sent.status).toBe('processing');
      const hash = sent.txHash!;
      expect(isTxHash(network, hash)).toBe(true);
      const format = {
        evm: /^0x[0-9a-f]{64}$/,
        tron: /^[0-9a-f]{64}$/,
        solana: /^[1-9A-HJ-NP-Za-km-z]{86,88}$/,
      };
      expect(hash).toMatch(format[networkFamily(network)]);

      clock.advance(SETTLE_MS - 1_000);
      expect(await chain.getStatus(paymentId)).toEqual({ status: 'processing', txHash: hash });
      clock.advance(1_000);
      expect(await chain.getStatus(paymentId)).toEqual({ status: 'completed', txHash: hash });
    },
  );

  it('is idempotent on the payment id: a second send, even with another body, answers the first', async () => {
    const paymentId = randomUUID();
    const first = await send('polygon', 5_000_000n, { paymentId });
    const again = await send('polygon', 7_000_000n, { paymentId });
    expect(again).toEqual(first);
    expect(await rowCount(paymentId)).toBe(1);
  });

  it('keeps one transfer when the same payment is sent concurrently', async () => {
    const paymentId = randomUUID();
    const to = address('base');
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        chain.sendTransfer({
          paymentId,
          network: 'base',
          currency: 'USDC',
          fromAddress: address('base'),
          toAddress: to,
          amountMinor: 42n,
        }),
      ),
    );
    expect(new Set(results.map((r) => r.txHash)).size).toBe(1);
    expect(await rowCount(paymentId)).toBe(1);
  });

  it('reverts an amount ending in 13, keeping its tx hash, and only that', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 9_999_999_999_999_999n }), async (amount) => {
        const paymentId = randomUUID();
        const sent = await chain.sendTransfer({
          paymentId,
          network: 'tron',
          currency: 'USDT',
          fromAddress: address('tron'),
          toAddress: address('tron'),
          amountMinor: amount,
        });
        expect(sent.status).toBe('processing');
        clock.advance(SETTLE_MS);
        const settled = await chain.getStatus(paymentId);
        expect(settled.txHash).toBe(sent.txHash);
        if (amount % 100n === 13n)
          expect(settled).toMatchObject({ status: 'failed', failureReason: SANDBOX_REVERT_REASON });
        else expect(settled).toEqual({ status: 'completed', txHash: sent.txHash });
      }),
      { numRuns: 25, examples: [[13n], [1_000_013n], [113n], [14n]] },
    );
  });

  it('refuses before broadcast what no chain would take: failed, no tx hash, recorded', async () => {
    const paymentId = randomUUID();
    const refused = await send('polygon', 1_000n, {
      paymentId,
      toAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(refused).toEqual({ status: 'failed', failureReason: 'invalid_to_address' });
    expect(await chain.getStatus(paymentId)).toEqual(refused);
    const unsupported = await chain.sendTransfer({
      paymentId: randomUUID(),
      network: 'polygon',
      currency: 'BRL' as 'USDT',
      fromAddress: address('polygon'),
      toAddress: address('polygon'),
      amountMinor: 1n,
    });
    expect(unsupported).toEqual({ status: 'failed', failureReason: 'unsupported_currency' });
    await expect(send('polygon', 0n)).rejects.toThrow(RangeError);
  });

  it('answers unknown for a payment it never saw, and lets a sandbox helper force an outcome', async () => {
    expect(await chain.getStatus(randomUUID())).toEqual({ status: 'unknown' });
    expect(await chain.getStatus('not-a-uuid')).toEqual({ status: 'unknown' });
    const paymentId = randomUUID();
    const sent = await send('solana', 2_000_000n, { paymentId });
    await chain.forceOutcome(paymentId, 'failed', 'insufficient_gas');
    expect(await chain.getStatus(paymentId)).toEqual({
      status: 'failed',
      txHash: sent.txHash,
      failureReason: 'insufficient_gas',
    });
  });
});

describe('SandboxChainProvider deposits', () => {
  it('lists a deposit once final, from `since` on, on its own network only', async () => {
    const wallet = address('ethereum');
    const start = clock.now();
    const { txHash } = await chain.simulateDeposit({
      network: 'polygon',
      currency: 'USDC',
      toAddress: wallet.toLowerCase(),
      amountMinor: 25_000_000n,
    });
    const watched = [
      { network: 'polygon' as const, address: wallet },
      { network: 'base' as const, address: wallet },
    ];
    expect(await chain.listIncoming(watched, start)).toEqual([]);
    clock.advance(SETTLE_MS);
    const incoming = await chain.listIncoming(watched, start);
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({
      network: 'polygon',
      currency: 'USDC',
      txHash,
      logIndex: 0,
      toAddress: wallet,
      amountMinor: 25_000_000n,
    });
    expect(incoming[0]!.confirmedAt.getTime()).toBe(start.getTime() + SETTLE_MS);
    expect(await chain.listIncoming([{ network: 'base', address: wallet }], start)).toEqual([]);
    expect(await chain.listIncoming(watched, new Date(incoming[0]!.confirmedAt.getTime() + 1))).toEqual([]);
  });

  it('shows a completed send between two watched wallets as a deposit, and a reverted one not at all', async () => {
    const receiver = address('tron');
    const since = clock.now();
    const ok = await send('tron', 3_000_000n, { toAddress: receiver });
    const reverted = await send('tron', 3_000_013n, { toAddress: receiver });
    clock.advance(SETTLE_MS);
    const incoming = await chain.listIncoming([{ network: 'tron', address: receiver }], since);
    expect(incoming.map((t) => t.txHash)).toEqual([ok.txHash]);
    expect(reverted.txHash).toBeDefined();
  });

  it('ignores addresses that cannot receive on the network named', async () => {
    expect(await chain.listIncoming([{ network: 'solana', address: '0xnope' }], new Date(0))).toEqual([]);
  });
});
