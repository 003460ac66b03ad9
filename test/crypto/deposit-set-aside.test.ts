/**
 * A transfer the ledger cannot credit (a balance pushed past BIGINT) must not stop the deposit
 * watcher for everyone: it is set aside (recorded, counted, reported) and the cursor moves past it.
 * The sandbox helper refuses such a deposit before the chain keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSIT_WATCHER, watchDeposits } from '../../src/modules/crypto/deposits.ts';
import { SetAsideError, setAsideTotal } from '../../src/platform/set-aside.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { cryptoWorkspace } from './support.ts';

const SETTLE_MS = 1000;
/** Near the most a BIGINT balance holds (9,223,372,036,854,775,807): one more such deposit overflows. */
const HUGE = 9_000_000_000_000_000_000n;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: SETTLE_MS });
});
afterAll(() => ctx.close());

const counted = async () =>
  (await setAsideTotal.get()).values.find((v) => v.labels.source === DEPOSIT_WATCHER)?.value ?? 0;

const openItems = async () =>
  (
    await ctx.db.query<{ item_key: string; error_code: string; attempts: number; payload: string }>(
      `SELECT item_key, error_code, attempts, payload FROM set_aside_items
        WHERE source = $1 AND resolved_at IS NULL`,
      [DEPOSIT_WATCHER],
    )
  ).rows;

const onChain = (toAddress: string, amountMinor: bigint) =>
  ctx.deps.providers.sandbox.chain.simulateDeposit({
    network: 'tron',
    currency: 'USDT',
    toAddress,
    amountMinor,
  });

/** Lets what is on chain settle, then one watcher round: its count, or the SetAsideError it ended with. */
async function round(): Promise<number | SetAsideError> {
  ctx.clock.advance(SETTLE_MS + 100);
  return watchDeposits(ctx.deps).catch((error: unknown) => {
    if (error instanceof SetAsideError) return error;
    throw error;
  });
}

describe('a deposit the ledger refuses', () => {
  it('is set aside and later deposits of other tenants are credited', async () => {
    const alice = await cryptoWorkspace(ctx, 'Alice');
    const bob = await cryptoWorkspace(ctx, 'Bob');
    const aliceWallet = await alice.wallet('tron');
    const bobWallet = await bob.wallet('tron');
    await onChain(aliceWallet.address, HUGE);
    expect(await round()).toBe(1);
    const before = await counted();

    const poison = await onChain(aliceWallet.address, HUGE); // past BIGINT: the ledger refuses it
    await onChain(bobWallet.address, 5_000_000n);
    const ended = await round();
    expect(ended).toBeInstanceOf(SetAsideError);
    expect((ended as SetAsideError).items).toEqual([
      expect.objectContaining({ key: `sandbox:tron:${poison.txHash}:0` }),
    ]);
    expect(await bob.coins()).toMatchObject({ available: '5000000' });
    expect(await alice.coins()).toMatchObject({ available: HUGE.toString() });
    const [item] = await openItems();
    expect(item).toMatchObject({
      item_key: `sandbox:tron:${poison.txHash}:0`,
      error_code: '22003',
      attempts: 1,
    });
    expect(JSON.parse(item!.payload)).toMatchObject({
      amountMinor: HUGE.toString(),
      toAddress: aliceWallet.address,
    });
    expect(await counted()).toBe(before + 1);

    // The cursor moved past it: the next deposit is credited and the poisoned one is not tried again yet.
    await onChain(bobWallet.address, 7_000_000n);
    expect(await round()).toBe(1);
    expect(await bob.coins()).toMatchObject({ available: '12000000' });
    expect(await counted()).toBe(before + 1);

    // Its retry comes after a minute, on its own: refused again, it waits twice as long.
    ctx.clock.advance(60_000);
    expect(await round()).toBeInstanceOf(SetAsideError);
    expect((await openItems())[0]).toMatchObject({ attempts: 2 });
    expect(await counted()).toBe(before + 2);

    // An operator clears it: it is never tried again, and nothing else is held back.
    await ctx.db.query(
      `UPDATE set_aside_items SET resolved_at = now(), resolution = 'cleared' WHERE source = $1`,
      [DEPOSIT_WATCHER],
    );
    ctx.clock.advance(3 * 3600_000);
    expect(await round()).toBe(0);
    expect(await alice.coins()).toMatchObject({ available: HUGE.toString() });
  });
});

describe('the sandbox deposit helper', () => {
  it('a deposit the ledger refuses answers 400 and leaves no transfer on chain for the watcher', async () => {
    const carol = await cryptoWorkspace(ctx, 'Carol');
    const wallet = await carol.wallet('tron');
    await onChain(wallet.address, 9_223_372_036_854_775_000n);
    expect(await round()).toBe(1);
    const transfers = async () =>
      (
        await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sandbox_chain_transfers WHERE to_address = $1',
          [wallet.address],
        )
      ).rows[0]!.n;
    const res = await carol.api.post('/v1/sandbox/simulate/crypto/deposit', {
      wallet_id: wallet.id,
      currency: 'USDT',
      amount_minor: '9999999999999999',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_amount');
    expect(await transfers()).toBe(1);
    expect(await round()).toBe(0);
    expect(await openItems()).toEqual([]);
    expect(await carol.coins()).toMatchObject({ available: '9223372036854775000' });
  });
});
