/**
 * One merchant's batches ran one after another: the next took its requests only once the previous
 * COMMIT had returned, so the lane sat idle for that round trip. On PostgreSQL it now starts once
 * the previous batch has sent everything but its COMMIT, queues at the merchant's gate in the
 * database, and commits after it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { workspaceGroupCommit } from '../../src/ledger/gate.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';
import { until } from '../support/until.ts';

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

/**
 * The database with its transactions' COMMIT held (the first one's, or every one's) once their
 * function has returned, until the test releases them.
 */
function holdingCommits(real: Database, which: 'first' | 'all'): { db: Database; releaseCommit: () => void } {
  let releaseCommit!: () => void;
  const commitHeld = new Promise<void>((resolve) => {
    releaseCommit = resolve;
  });
  let holdNext = true;
  const db: Database = {
    ...real,
    transaction: (fn, options) =>
      real.transaction(async (tx) => {
        const value = await fn(tx);
        if (holdNext) {
          holdNext = which === 'all';
          await commitHeld;
        }
        return value;
      }, options),
  };
  return { db, releaseCommit };
}

describe.runIf(onRealPostgres())("a merchant's group-commit lane", () => {
  let real: Database;
  beforeAll(async () => {
    real = await createTestDatabase();
    await real.exec(
      'CREATE TABLE writes (n int PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())',
    );
  });
  afterAll(() => real?.close());

  it('starts its next batch while the previous one commits, and commits it after', async () => {
    const { db, releaseCommit } = holdingCommits(real, 'first');
    const lane = workspaceGroupCommit(db, { lanes: 1 });
    const workspace = randomUUID();
    let firstDone = false;
    const first = lane.run(workspace, async (tx) => {
      await tx.query('INSERT INTO writes (n) VALUES (1)');
      firstDone = true;
    });
    expect(await until(() => firstDone, 5_000)).toBe(true);
    let secondStarted = false;
    const second = lane.run(workspace, async (tx) => {
      secondStarted = true;
      await tx.query('INSERT INTO writes (n) VALUES (2)');
    });
    expect(await until(() => secondStarted, 2_000)).toBe(true);
    // It waits at the merchant's gate, in the database, for the first batch's COMMIT.
    expect(await settledWithin(second, 300)).toBe(false);
    releaseCommit();
    await Promise.all([first, second]);
    const { rows } = await real.query<{ n: number }>('SELECT n FROM writes ORDER BY at');
    expect(rows.map((row) => row.n)).toEqual([1, 2]);
  });

  it('answers a request its batch put back for a retry, though the lane was released before COMMIT', async () => {
    const lane = workspaceGroupCommit(real, { lanes: 1, maxWaitMs: 5_000 });
    let tries = 0;
    const retried = lane.run(randomUUID(), async (tx) => {
      tries++;
      if (tries === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      await tx.query('INSERT INTO writes (n) VALUES (3)');
      return 'written';
    });
    const answer = await Promise.race([
      retried,
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 3_000)),
    ]);
    expect(answer).toBe('written');
    expect(tries).toBe(2);
  });

  it('has at most one batch waiting on its COMMIT while the next runs, so a lane holds two connections', async () => {
    const { db, releaseCommit: releaseCommits } = holdingCommits(real, 'all');
    const lane = workspaceGroupCommit(db, { lanes: 1 });
    const started: string[] = [];
    const write = (name: string, n: number) =>
      lane.run(randomUUID(), async (tx) => {
        started.push(name);
        await tx.query('INSERT INTO writes (n) VALUES ($1)', [n]);
      });
    const first = write('first', 10);
    expect(await until(() => started.includes('first'), 5_000)).toBe(true);
    const second = write('second', 11);
    expect(await until(() => started.includes('second'), 2_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the second batch reaches its COMMIT
    const third = write('third', 12);
    expect(await until(() => started.includes('third'), 300)).toBe(false);
    releaseCommits();
    await Promise.all([first, second, third]);
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('refuses a retried request once its wait limit passes, while another batch holds the lane', async () => {
    const { db, releaseCommit } = holdingCommits(real, 'first');
    const lane = workspaceGroupCommit(db, { lanes: 1, maxWaitMs: 800 });
    let tries = 0;
    const retried = lane.run(randomUUID(), async () => {
      tries++;
      if (tries === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    const outcome = retried.then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    let endHolder!: () => void;
    const holderEnds = new Promise<void>((resolve) => {
      endHolder = resolve;
    });
    let holding = false;
    const holder = lane.run(randomUUID(), async () => {
      holding = true;
      await holderEnds; // a batch that holds the lane long past the wait limit
    });
    expect(await until(() => holding, 2_000)).toBe(true);
    releaseCommit();
    const answer = await Promise.race([
      outcome,
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 3_000)),
    ]);
    endHolder();
    await holder;
    expect(answer).toBe('overloaded');
    expect(tries).toBe(1);
  });
});
