/**
 * Concurrency of the ledger on a real PostgreSQL server (PGlite runs one transaction at a time, so it
 * proves nothing here). Transactions run with retries: 0, so a deadlock or serialization failure would
 * reach the test instead of being retried away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { accountId, balanceOf, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { InsufficientBalanceError, postJournal, transfer } from '../../src/ledger/ledger.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';
import { seedWorkspace } from '../support/world.ts';

const env = 'sandbox' as const;
const ref = { referenceType: 'test', referenceId: 'concurrency' };

describe.skipIf(!onRealPostgres())('ledger under concurrency (PostgreSQL)', () => {
  let db: Database;
  let workspaceId: string;
  let parties: string[];
  const avail = (p: string) => partyAccount(workspaceId, env, p, 'BRL');
  const settlement = () => systemAccount.pixSettlement(workspaceId, env);

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ workspaceId, parties } = await seedWorkspace(db, 4));
  });
  afterAll(() => db.close());

  /** The reasons of the rejected results: none is expected where these are checked. */
  const rejections = (results: PromiseSettledResult<unknown>[]) =>
    results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);

  /** n transfers at once, each in its own transaction, never retried. */
  const race = (
    n: number,
    input: (
      i: number,
    ) => Omit<
      Parameters<typeof transfer>[1],
      'workspaceId' | 'environment' | 'referenceType' | 'referenceId'
    >,
  ) =>
    Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        db.transaction((tx) => transfer(tx, { workspaceId, environment: env, ...ref, ...input(i) }), {
          retries: 0,
        }),
      ),
    );

  const journalsOf = async (account: string) =>
    (
      await db.query<{ n: bigint }>(
        'SELECT count(*)::bigint AS n FROM ledger_postings WHERE account_id = $1',
        [account],
      )
    ).rows[0]!.n;

  it('200 concurrent debits against a balance covering 100: exactly 100 succeed, the balance ends at 0', async () => {
    const payer = avail(parties[0]!);
    await db.transaction((tx) =>
      transfer(tx, { workspaceId, environment: env, ...ref, from: settlement(), to: payer, amount: 100n }),
    );
    // A watcher samples the balance while the debits run: it must never be negative.
    let running = true;
    let lowest = 100n;
    const watcher = (async () => {
      while (running) {
        const value = await balanceOf(db, payer);
        if (value < lowest) lowest = value;
      }
    })();
    const results = await race(200, () => ({
      from: payer,
      to: systemAccount.feeRevenue(workspaceId, env, 'BRL'),
      amount: 1n,
    }));
    running = false;
    await watcher;
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(100);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await balanceOf(db, payer)).toBe(0n);
    expect(lowest).toBeGreaterThanOrEqual(0n);
    expect(await journalsOf(accountId(payer))).toBe(101n);
  });

  it('200 concurrent credits into one account lose no update', async () => {
    const payee = avail(parties[1]!);
    // The account does not exist yet: the first credits race to create it too.
    const results = await race(200, (i) => ({ from: settlement(), to: payee, amount: BigInt(i + 1) }));
    expect(rejections(results)).toEqual([]);
    expect(await balanceOf(db, payee)).toBe(20_100n);
    expect(await journalsOf(accountId(payee))).toBe(200n);
  });

  it('transfers both ways between two accounts at once never deadlock', async () => {
    const [a, b] = [avail(parties[2]!), avail(parties[3]!)];
    await db.transaction((tx) =>
      postJournal(tx, {
        workspaceId,
        environment: env,
        ...ref,
        postings: [
          { account: settlement(), direction: 'debit', amount: 2000n },
          { account: a, direction: 'credit', amount: 1000n },
          { account: b, direction: 'credit', amount: 1000n },
        ],
      }),
    );
    const results = await race(200, (i) => ({ from: i % 2 ? a : b, to: i % 2 ? b : a, amount: 3n }));
    expect(rejections(results)).toEqual([]);
    expect((await balanceOf(db, a)) + (await balanceOf(db, b))).toBe(2000n);
    expect(await balanceOf(db, a)).toBe(1000n);
  });

  it('journals over three accounts in every order never deadlock and conserve money', async () => {
    const accounts = [avail(parties[0]!), avail(parties[1]!), avail(parties[4]!)];
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 0],
      [0, 2, 1],
      [2, 0, 1],
      [1, 0, 2],
    ];
    const before = await Promise.all(accounts.map((acc) => balanceOf(db, acc)));
    const results = await Promise.allSettled(
      Array.from({ length: 120 }, (_, i) => {
        const [x, y, z] = orders[i % orders.length]!.map((n) => accounts[n]!);
        return db.transaction(
          (tx) =>
            postJournal(tx, {
              workspaceId,
              environment: env,
              ...ref,
              postings: [
                { account: settlement(), direction: 'debit', amount: 2n },
                { account: x!, direction: 'credit', amount: 2n },
                { account: x!, direction: 'debit', amount: 1n },
                { account: y!, direction: 'credit', amount: 1n },
                { account: y!, direction: 'debit', amount: 1n },
                { account: z!, direction: 'credit', amount: 1n },
              ],
            }),
          { retries: 0 },
        );
      }),
    );
    expect(rejections(results)).toEqual([]);
    const after = await Promise.all(accounts.map((acc) => balanceOf(db, acc)));
    expect(after.reduce((s, v) => s + v, 0n) - before.reduce((s, v) => s + v, 0n)).toBe(240n);
  });
});
