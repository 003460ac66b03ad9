/**
 * A write that posts to a workspace's ledger outside its group-commit lane (the worker's settlements,
 * RFQ execute, crypto sends) must not deadlock with the lane's batch. The batch locks balances request
 * by request, in no sorted order, so without a common first lock the two can each hold a balance the
 * other needs. Only real PostgreSQL has concurrent transactions (PGlite runs one at a time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../src/db/types.ts';
import {
  type AccountRef,
  accountId,
  balanceOf,
  partyAccount,
  systemAccount,
} from '../../src/ledger/accounts.ts';
import { workspaceGroupCommit } from '../../src/ledger/gate.ts';
import { type JournalInput, postJournal } from '../../src/ledger/ledger.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';
import { seedWorkspace, someoneWaitsOnALock } from './helpers.ts';

const env = 'sandbox' as const;
let db: Database;
let workspaceId: string;
let parties: string[];
let otherWorkspaceId: string;
let otherParty: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ workspaceId, parties } = await seedWorkspace(db, 2));
  const other = await seedWorkspace(db);
  otherWorkspaceId = other.workspaceId;
  otherParty = other.parties[0]!;
});
afterAll(() => db.close());

type Account = AccountRef;
const party = (i: number) => partyAccount(workspaceId, env, parties[i]!, 'BRL');
const settlement = () => systemAccount.pixSettlement(workspaceId, env);
const move = (from: Account, to: Account, amount: bigint): JournalInput => ({
  workspaceId: from.workspaceId,
  environment: env,
  referenceType: 'test',
  referenceId: 'gate',
  postings: [
    { account: from, direction: 'debit', amount },
    { account: to, direction: 'credit', amount },
  ],
});

describe.runIf(onRealPostgres())('the ledger gate', () => {
  it('makes a write outside the lane wait for the lane batch instead of deadlocking with it', async () => {
    for (const i of [0, 1])
      await db.transaction((tx) => postJournal(tx, move(settlement(), party(i), 1000n)));
    const [low, high] = [party(0), party(1)].sort((a, b) => (accountId(a) < accountId(b) ? -1 : 1)) as [
      Account,
      Account,
    ];
    const group = workspaceGroupCommit(db, { lanes: 1 });

    // A first batch holds the lane while the two writes that matter queue up behind it, so both share
    // the next batch: the first locks the higher balance, the second the lower one.
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = group.run(workspaceId, () => held);
    let highLocked!: () => void;
    const highIsLocked = new Promise<void>((resolve) => {
      highLocked = resolve;
    });
    const one = group.run(workspaceId, async (tx) => {
      await postJournal(tx, move(high, settlement(), 100n));
      highLocked();
      await someoneWaitsOnALock(db);
    });
    const two = group.run(workspaceId, (tx) => postJournal(tx, move(low, settlement(), 100n)));
    releaseFirst();
    await first;
    await highIsLocked;

    // Outside the lane, in sorted order: the lower balance, then the higher one. No retry, so a
    // deadlock would surface here.
    const outside = db.transaction((tx) => postJournal(tx, move(low, high, 50n)), { retries: 0 });
    const results = await Promise.allSettled([one, two, outside]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(await balanceOf(db, low)).toBe(850n);
    expect(await balanceOf(db, high)).toBe(950n);
  });

  it('two batches of the same two workspaces, from two processes, never deadlock', async () => {
    const cashIn = (workspace: string) => (tx: Tx) =>
      postJournal(
        tx,
        move(
          systemAccount.pixSettlement(workspace, env),
          partyAccount(workspace, env, workspace === workspaceId ? parties[0]! : otherParty, 'BRL'),
          10n,
        ),
      );
    const runs = new Map<string, number>();
    const counted =
      (name: string, fn: ReturnType<typeof cashIn>, after?: () => Promise<void>) => async (tx: Tx) => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        await fn(tx);
        await after?.();
      };
    // Two API processes: each its own lanes, both with writes of the two workspaces in one batch,
    // queued in opposite orders.
    const [a, b] = [workspaceGroupCommit(db, { lanes: 1 }), workspaceGroupCommit(db, { lanes: 1 })];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const blockers = [a.run(workspaceId, () => held), b.run(workspaceId, () => held)];
    const writes = [
      a.run(
        workspaceId,
        // Holding both gates, a1 waits for b's batch to queue on them, unless b took them first
        // and has already run: either order must end without a deadlock.
        counted('a1', cashIn(workspaceId), async () => {
          if (!runs.has('b2')) await someoneWaitsOnALock(db);
        }),
      ),
      a.run(otherWorkspaceId, counted('a2', cashIn(otherWorkspaceId))),
      b.run(otherWorkspaceId, counted('b1', cashIn(otherWorkspaceId))),
      b.run(workspaceId, counted('b2', cashIn(workspaceId))),
    ];
    release();
    await Promise.all(blockers);
    const results = await Promise.allSettled(writes);
    expect(results.map((result) => result.status)).toEqual(Array(4).fill('fulfilled'));
    // A deadlock would have sent one of them round again.
    expect(Object.fromEntries(runs)).toEqual({ a1: 1, a2: 1, b1: 1, b2: 1 });
  });
});
