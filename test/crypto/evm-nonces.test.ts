/**
 * The live EVM nonce manager: nonces are handed out under a row lock per sending address, so
 * concurrent sends (several workers; real concurrency on PostgreSQL) never share one, and they are
 * reconciled with the node's pending count.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import {
  findTransfer,
  finish,
  planTransfer,
  releaseNonce,
  type TransferPlan,
} from '../../src/providers/chain/evm/store.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const plan = (from: string, paymentId = randomUUID()): TransferPlan => ({
  paymentId,
  network: 'polygon',
  token: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  from,
  to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  amount: 1_000_000n,
  keyRef: randomUUID(),
  chainId: 137n,
  gas: 60_000n,
  maxFeePerGas: 2n,
  maxPriorityFeePerGas: 1n,
});

const nonceOf = async (paymentId: string) => (await findTransfer(db, paymentId))!.nonce;

describe('EVM nonces', () => {
  it('20 concurrent sends from one address get 20 distinct nonces, 0..19; another address starts at its own count', async () => {
    const from = '0x1111111111111111111111111111111111111111';
    const plans = Array.from({ length: 20 }, () => plan(from));
    await Promise.all(plans.map((each) => planTransfer(db, each, 0n)));
    const nonces = await Promise.all(plans.map((each) => nonceOf(each.paymentId)));
    expect(nonces.map(Number).sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    const other = plan('0x2222222222222222222222222222222222222222');
    await planTransfer(db, other, 7n);
    expect(await nonceOf(other.paymentId)).toBe(7n);
  });

  it('one payment planned twice keeps its first nonce and takes no second one', async () => {
    const from = '0x3333333333333333333333333333333333333333';
    const first = plan(from);
    expect(await planTransfer(db, first, 0n)).toBe(true);
    expect(await planTransfer(db, { ...first, gas: 1n }, 0n)).toBe(false);
    const next = plan(from);
    await planTransfer(db, next, 0n);
    expect([await nonceOf(first.paymentId), await nonceOf(next.paymentId)]).toEqual([0n, 1n]);
  });

  it('reconciles with the node: never below its pending count; back down to it once nothing of ours above it is open', async () => {
    const from = '0x4444444444444444444444444444444444444444';
    const a = plan(from);
    const b = plan(from);
    await planTransfer(db, a, 0n);
    await planTransfer(db, b, 0n); // nonce 1, still open
    // Someone else used the address: the node counts 5.
    const c = plan(from);
    await planTransfer(db, c, 5n);
    expect(await nonceOf(c.paymentId)).toBe(5n);
    // Ours at 5 is open, so the next is 6 even while the node still counts 5.
    const d = plan(from);
    await planTransfer(db, d, 5n);
    expect(await nonceOf(d.paymentId)).toBe(6n);
    // 5 and 6 failed without reaching the chain: the next send fills the gap at the node's count.
    await finish(db, c.paymentId, 'failed', 'broadcast_rejected');
    await finish(db, d.paymentId, 'failed', 'broadcast_rejected');
    const e = plan(from);
    await planTransfer(db, e, 5n);
    expect(await nonceOf(e.paymentId)).toBe(5n);
  });

  it('a refused transfer holding the last nonce gives it back; an earlier one does not', async () => {
    const from = '0x5555555555555555555555555555555555555555';
    const a = plan(from);
    const b = plan(from);
    await planTransfer(db, a, 0n);
    await planTransfer(db, b, 0n);
    await releaseNonce(db, (await findTransfer(db, a.paymentId))!); // not the last: kept
    await releaseNonce(db, (await findTransfer(db, b.paymentId))!); // the last: 1 comes back
    await finish(db, b.paymentId, 'failed', 'broadcast_rejected');
    const c = plan(from);
    await planTransfer(db, c, 0n);
    expect(await nonceOf(c.paymentId)).toBe(1n);
  });
});
