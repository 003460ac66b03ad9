/**
 * Group commit (src/db/group-commit.ts): concurrent writes share a transaction, each in its own
 * savepoint; a refused one rolls back alone; nobody is answered before the shared COMMIT, and when the
 * COMMIT fails every write of the batch fails and none of them is in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Database } from '../../src/db/types.ts';
import { balanceOf, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { InsufficientBalanceError, type JournalInput, postJournal } from '../../src/ledger/ledger.ts';
import { createTestDatabase } from '../support/database.ts';
import {
  createProbe,
  tags as probeTags,
  transactionsOf as probeTransactions,
  tag,
} from './group-commit-probe.ts';
import { seedWorkspace } from './helpers.ts';

const env = 'sandbox' as const;
let db: Database;
let workspaceId: string;
let parties: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  ({ workspaceId, parties } = await seedWorkspace(db, 2));
  await createProbe(db);
});
afterAll(() => db.close());

const account = (i: number) => partyAccount(workspaceId, env, parties[i]!, 'BRL');
const settlement = () => systemAccount.pixSettlement(workspaceId, env);
const journal = (
  from: ReturnType<typeof account> | ReturnType<typeof settlement>,
  to: ReturnType<typeof account>,
  amount: bigint,
): JournalInput => ({
  workspaceId,
  environment: env,
  referenceType: 'test',
  referenceId: 'batch',
  postings: [
    { account: from, direction: 'debit', amount },
    { account: to, direction: 'credit', amount },
  ],
});

const tags = (prefix: string) => probeTags(db, prefix);
const transactionsOf = (prefix: string) => probeTransactions(db, prefix);

describe('GroupCommit', () => {
  it('commits concurrent writes of one key together, each answered with its own result', async () => {
    const group = new GroupCommit(db, { lanes: 2 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        group.run(workspaceId, async (tx) => {
          await tag(tx, `together-${String(i).padStart(2, '0')}`);
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(await tags('together-')).toHaveLength(40);
    // The first write commits alone; the 39 queued behind it share the next transaction.
    expect(await transactionsOf('together-')).toBeLessThan(5);
  });

  it('rolls a refused write back alone: the rest of its batch commits', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const before = await balanceOf(db, account(0));
    const outcomes = await Promise.allSettled([
      group.run('k', (tx) => postJournal(tx, journal(settlement(), account(0), 5n))),
      // Writes something, then is refused: its write must go with it.
      group.run('k', async (tx) => {
        await tag(tx, 'alone-refused');
        return postJournal(tx, journal(account(0), account(1), before + 6n));
      }),
      // A statement that fails in SQL (unique violation) leaves the batch's transaction usable.
      group.run('k', async (tx) => {
        await tag(tx, 'alone-kept');
        await tag(tx, 'alone-kept');
      }),
      group.run('k', async (tx) => {
        await tag(tx, 'alone-ok');
        return postJournal(tx, journal(account(0), account(1), 1n));
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect(await tags('alone-')).toEqual(['alone-ok']);
    expect(await balanceOf(db, account(0))).toBe(before + 4n);
  });

  it('fails every write of a batch whose COMMIT fails, and keeps none of them', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    // The first runs alone while the others queue: they then share one batch, which fails at COMMIT.
    const first = group.run('k', (tx) => tag(tx, 'commit-first'));
    const batch = ['a', 'b', 'boom', 'c'].map((name) => group.run('k', (tx) => tag(tx, `commit-${name}`)));
    await first;
    const outcomes = await Promise.allSettled(batch);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(await tags('commit-')).toEqual(['commit-first']);
  });

  it('runs writes without savepoints side by side: a refusal is theirs alone, a SQL error fails the batch', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const side = { savepoint: false };
    const first = group.run('k', (tx) => tag(tx, 'side-first'), side);
    const refused = await Promise.allSettled([
      group.run('k', (tx) => tag(tx, 'side-a'), side),
      group.run('k', (tx) => postJournal(tx, journal(account(1), account(0), 10n ** 15n)), side),
      group.run('k', (tx) => tag(tx, 'side-b'), side),
    ]);
    await first;
    expect(refused.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((refused[1] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await tags('side-')).toEqual(['side-a', 'side-b', 'side-first']);

    const blocker = group.run('k', (tx) => tag(tx, 'side-c'), side);
    const failed = await Promise.allSettled([
      group.run('k', (tx) => tag(tx, 'side-d'), side),
      group.run('k', (tx) => tag(tx, 'side-a'), side), // unique violation: the transaction is aborted
      group.run('k', (tx) => tag(tx, 'side-e'), side),
    ]);
    await blocker;
    expect(failed.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await tags('side-')).toEqual(['side-a', 'side-b', 'side-c', 'side-first']);
  });

  it('never overdraws: 200 debits of 1 against a balance of 100, exactly 100 succeed', async () => {
    const group = new GroupCommit(db, { lanes: 4, maxBatch: 16 });
    const payer = partyAccount(workspaceId, env, parties[0]!, 'USDT');
    const custody = systemAccount.cryptoCustody(workspaceId, env, 'tron', 'USDT');
    const move = (
      from: typeof payer | typeof custody,
      to: typeof payer | typeof custody,
      amount: bigint,
    ) => ({
      ...journal(account(0), account(1), amount),
      postings: [
        { account: from, direction: 'debit' as const, amount },
        { account: to, direction: 'credit' as const, amount },
      ],
    });
    await group.run(workspaceId, (tx) => postJournal(tx, move(custody, payer, 100n)));
    // Keys spread over every lane: batches of different lanes race for the same balance row.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        group.run(`key-${i}`, (tx) =>
          postJournal(tx, move(payer, systemAccount.feeRevenue(workspaceId, env, 'USDT'), 1n)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(100);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(InsufficientBalanceError);
    }
    expect(await balanceOf(db, payer)).toBe(0n);
  });

  it('refuses with 503 overloaded, writing nothing, past the lane queue bound or the wait limit', async () => {
    let clock = 0;
    const group = new GroupCommit(db, {
      lanes: 1,
      maxBatch: 2,
      maxQueue: 3,
      maxWaitMs: 1000,
      now: () => clock,
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = group.run(workspaceId, async (tx) => {
      await tag(tx, 'bound-first');
      await gate;
    });
    const queued = [1, 2, 3].map((i) => group.run(workspaceId, (tx) => tag(tx, `bound-queued-${i}`)));
    const over = group.run(workspaceId, (tx) => tag(tx, 'bound-over'));
    await expect(over).rejects.toMatchObject({
      code: 'overloaded',
      status: 503,
      headers: { 'retry-after': '1' },
    });
    clock = 5000; // the queued three waited past the limit while the first batch held the lane
    release();
    await first;
    for (const q of queued) await expect(q).rejects.toMatchObject({ code: 'overloaded' });
    expect(await tags('bound-')).toEqual(['bound-first']);
    // The lane is free again.
    await group.run(workspaceId, (tx) => tag(tx, 'bound-after'));
    expect(await tags('bound-')).toEqual(['bound-after', 'bound-first']);
  });
});
