/**
 * The journals of an interleaved group-commit batch go in one ledger_post_journals call for all its
 * requests (journals-of-a-batch.ts) on PostgreSQL; on PGlite each goes alone. Each request still gets
 * its own answer: when the one call refuses, the batch runs again with savepoints and each journal is
 * posted, or refused, alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../test/ledger/helpers.ts';
import { createTestDatabase, onCitus, onRealPostgres } from '../../test/support/database.ts';
import { recordingDatabase } from '../../test/support/recording-transaction.ts';
import { GroupCommit, gatherInAttempt } from '../db/group-commit.ts';
import { JoinedWrites } from '../db/joined-writes.ts';
import type { Database, Tx } from '../db/types.ts';
import { newId } from '../platform/ids.ts';
import { type AccountRef, balanceOf, partyAccount, systemAccount } from './accounts.ts';
import { InsufficientBalanceError, transfer } from './ledger.ts';

const env = 'sandbox' as const;
let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

/** A workspace whose party holds `funds` BRL, funded outside any batch (so its accounts were seen posted). */
async function fundedWorkspace(funds: bigint) {
  const { workspaceId, parties } = await seedWorkspace(db, 1);
  const party = partyAccount(workspaceId, env, parties[0]!, 'BRL');
  /** The account of a party nothing was ever posted to. */
  const spare = partyAccount(workspaceId, env, parties[1]!, 'BRL');
  const settlement = systemAccount.pixSettlement(workspaceId, env);
  const fees = systemAccount.feeRevenue(workspaceId, env, 'BRL');
  await db.transaction((tx) => pay(tx, workspaceId, settlement, party, funds));
  await db.transaction((tx) => pay(tx, workspaceId, party, fees, 1n));
  await db.transaction((tx) => pay(tx, workspaceId, fees, party, 1n));
  return { workspaceId, party, fees, spare };
}

const pay = (tx: Tx, workspaceId: string, from: AccountRef, to: AccountRef, amount: bigint) =>
  transfer(tx, {
    workspaceId,
    environment: env,
    referenceType: 'test',
    referenceId: newId(),
    from,
    to,
    amount,
  });

/** Runs `writes` as one interleaved batch: a first request holds the lane while they queue. */
async function oneBatch(group: GroupCommit, writes: { key: string; fn: (tx: Tx) => Promise<unknown> }[]) {
  const first = group.run('first', async (tx) => tx.query('SELECT 1'));
  const outcomes = Promise.allSettled(writes.map(({ key, fn }) => group.run(key, fn, { interleave: true })));
  await first;
  return outcomes;
}

/** Whether batches gather journals here: on PostgreSQL, not on PGlite nor Citus. */
const gathers = () => onRealPostgres() && !onCitus();

/** What the batch sent, after the first request that held the lane (in a savepoint of its own). */
const afterTheFirst = (sent: string[]) => sent.slice(sent.indexOf('SELECT 1') + 1);

const journalsOf = async (workspaceId: string) =>
  (
    await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_journals WHERE workspace_id = $1', [
      workspaceId,
    ])
  ).rows[0]!.n;

describe('the journals of an interleaved batch', () => {
  it('go in one call across its workspaces on PostgreSQL, each alone on PGlite, and each request’s is posted', async () => {
    const a = await fundedWorkspace(1_000n);
    const b = await fundedWorkspace(1_000n);
    const sent: string[] = [];
    const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
    const fee = (w: typeof a, amount: bigint) => ({
      key: w.workspaceId,
      fn: (tx: Tx) => pay(tx, w.workspaceId, w.party, w.fees, amount),
    });
    const outcomes = await oneBatch(group, [fee(a, 100n), fee(b, 200n), fee(a, 300n), fee(b, 400n)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await balanceOf(db, a.party)).toBe(600n);
    expect(await balanceOf(db, b.party)).toBe(400n);
    expect(await balanceOf(db, a.fees)).toBe(400n);
    expect(await journalsOf(a.workspaceId)).toBe(3 + 2);
    expect(sent.filter((text) => text.includes('ledger_post_journals('))).toHaveLength(gathers() ? 1 : 0);
    expect(sent.filter((text) => text.includes('ledger_post('))).toHaveLength(gathers() ? 0 : 4);
    expect(afterTheFirst(sent).filter((text) => text.includes('SAVEPOINT'))).toHaveLength(0);
  });

  it('refuses, alone, the debit that fits on its own but not after the others, and posts the others', async () => {
    const w = await fundedWorkspace(100n);
    const group = new GroupCommit(db, { lanes: 1 });
    const debit = { key: w.workspaceId, fn: (tx: Tx) => pay(tx, w.workspaceId, w.party, w.fees, 40n) };
    const outcomes = await oneBatch(group, [debit, debit, debit]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await balanceOf(db, w.party)).toBe(20n);
    expect(await balanceOf(db, w.fees)).toBe(80n);
    expect(await journalsOf(w.workspaceId)).toBe(3 + 2);
  });

  it('posts at once, alone, a journal on an account this process never saw posted, and makes it', async () => {
    const w = await fundedWorkspace(500n);
    const sent: string[] = [];
    const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
    const newcomer = w.spare;
    const outcomes = await oneBatch(group, [
      { key: w.workspaceId, fn: (tx: Tx) => pay(tx, w.workspaceId, w.party, w.fees, 50n) },
      { key: w.workspaceId, fn: (tx: Tx) => pay(tx, w.workspaceId, w.fees, newcomer, 30n) },
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await balanceOf(db, newcomer)).toBe(30n);
    expect(await balanceOf(db, w.fees)).toBe(20n);
    // The newcomer's: missing, then made; the other's goes with the batch on PostgreSQL.
    expect(sent.filter((text) => text.includes('ledger_post('))).toHaveLength(gathers() ? 2 : 3);
    expect(sent.filter((text) => text.includes('ledger_post_journals('))).toHaveLength(gathers() ? 1 : 0);
    expect(afterTheFirst(sent).filter((text) => text.includes('SAVEPOINT'))).toHaveLength(0);
  });

  it('gather nothing when told not to (on Citus, where workspaces may not meet in a statement, and on PGlite)', () => {
    const gatherer = { statement: () => ({ text: 'SELECT 1', params: [] }) };
    expect(new JoinedWrites(false, false).gather(gatherer, 'journal')).toBe(false);
    expect(new JoinedWrites(true, false).gather(gatherer, 'journal')).toBe(false);
    expect(new JoinedWrites(true, true).gather(gatherer, 'journal')).toBe(true);
  });

  it('are not gathered once the attempt has sent what it gathered, so none is left unsent', () => {
    const joined = new JoinedWrites(true, true);
    const gatherer = { statement: () => ({ text: 'SELECT 1', params: [] }) };
    const later: string[] = [];
    expect(joined.gather(gatherer, 'first')).toBe(true);
    joined.send({ later: (text: string) => later.push(text) } as unknown as Tx);
    expect(later).toEqual(['SELECT 1']);
    expect(joined.gather(gatherer, 'late')).toBe(false);
  });

  it.runIf(gathers())(
    'run again with savepoints when the gathered statement cannot be built, and all post',
    async () => {
      const w = await fundedWorkspace(500n);
      const sent: string[] = [];
      const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
      const broken = {
        statement: (): { text: string; params: unknown[] } => {
          throw new RangeError('cannot be built');
        },
      };
      const payAndHandOver = async (tx: Tx) => {
        await pay(tx, w.workspaceId, w.party, w.fees, 10n);
        gatherInAttempt(tx, broken, 'item');
      };
      const outcomes = await oneBatch(group, [
        { key: w.workspaceId, fn: payAndHandOver },
        { key: w.workspaceId, fn: payAndHandOver },
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(await balanceOf(db, w.party)).toBe(480n);
      expect(afterTheFirst(sent).filter((text) => text.includes('SAVEPOINT')).length).toBeGreaterThan(0);
    },
  );

  it.runIf(gathers())(
    'take an account made by a transaction that rolled back as unseen, and post its journal alone',
    async () => {
      const w = await fundedWorkspace(500n);
      await db
        .transaction(async (tx) => {
          await pay(tx, w.workspaceId, w.fees, w.spare, 5n); // makes the spare party's account
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      const sent: string[] = [];
      const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
      const outcomes = await oneBatch(group, [
        { key: w.workspaceId, fn: (tx: Tx) => pay(tx, w.workspaceId, w.party, w.spare, 40n) },
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled']);
      expect(await balanceOf(db, w.spare)).toBe(40n);
      expect(sent.filter((text) => text.includes('ledger_post('))).toHaveLength(2); // missing, then made
      expect(sent.filter((text) => text.includes('ledger_post_journals('))).toHaveLength(0);
      expect(afterTheFirst(sent).filter((text) => text.includes('SAVEPOINT'))).toHaveLength(0);
    },
  );
});
