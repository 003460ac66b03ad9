/**
 * Interleaved group commit (src/db/group-commit.ts): a batch whose every request is marked
 * `interleave` first runs them all at once, side by side in one transaction without savepoints. When
 * any of them fails (a refusal, an SQL error, a call to isolate()), that attempt is rolled back whole
 * and the batch runs again with a savepoint per request, so each failure stays its request's own; a
 * failed COMMIT fails every request and runs none of them again. A batch that mixes interleaved and
 * other requests runs with savepoints, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit, isInterleaved, isolate } from '../../src/db/group-commit.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createTestDatabase } from '../support/database.ts';
import {
  createProbe,
  tags as probeTags,
  transactionsOf as probeTransactions,
  tag,
} from './group-commit-probe.ts';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  await createProbe(db);
});
afterAll(() => db.close());

const interleave = { interleave: true };

const tags = (prefix: string) => probeTags(db, prefix);
const transactionsOf = (prefix: string) => probeTransactions(db, prefix);

/**
 * A meeting point for `n` functions: each waits there until all `n` have arrived, or fails after
 * `timeoutMs` (so requests run one after the other fail the test instead of hanging it).
 */
function meetingPoint(n: number, timeoutMs = 2000) {
  let arrived = 0;
  let open!: () => void;
  const allThere = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    arrived++;
    if (arrived >= n) open();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`only ${arrived} of ${n} requests ran at once`)), timeoutMs);
    });
    try {
      await Promise.race([allThere, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Per request, whether each of its runs was interleaved (one entry per run). */
function runsLog(n: number) {
  const runs: boolean[][] = Array.from({ length: n }, () => []);
  return { runs, record: (i: number, tx: Tx) => runs[i]!.push(isInterleaved(tx)) };
}

describe('GroupCommit, interleaved batches', () => {
  it('runs the requests of an interleaved batch at the same time, committed in one transaction', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const N = 6;
    const meet = meetingPoint(N);
    const { runs, record } = runsLog(N);
    // The first runs alone while the others queue: they then share one batch.
    const first = group.run('k', (tx) => tag(tx, 'together-first'));
    const batch = Array.from({ length: N }, (_, i) =>
      group.run(
        'k',
        async (tx) => {
          record(i, tx);
          await tag(tx, `together-${i}`);
          await meet(); // opens only once every request of the batch has written and arrived
          return i;
        },
        interleave,
      ),
    );
    await first;
    expect(await Promise.all(batch)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(runs).toEqual(Array.from({ length: N }, () => [true]));
    expect(await tags('together-')).toHaveLength(N + 1);
    expect(await transactionsOf('together-')).toBe(2); // the first's, and the batch's one
  });

  it('answers a refusal in an interleaved batch to its request alone; the others commit', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const { runs, record } = runsLog(4);
    const first = group.run('k', (tx) => tag(tx, 'refused-first'));
    const outcomes = Promise.allSettled(
      [0, 1, 2, 3].map((i) =>
        group.run(
          'k',
          async (tx) => {
            record(i, tx);
            await tag(tx, `refused-${i}`);
            if (i === 2) throw new AppError('insufficient_balance', 'not enough');
            return `ok-${i}`;
          },
          interleave,
        ),
      ),
    );
    await first;
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(settled.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([
      'ok-0',
      'ok-1',
      'ok-3',
    ]);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({
      code: 'insufficient_balance',
      message: 'not enough',
    });
    expect(await tags('refused-')).toEqual(['refused-0', 'refused-1', 'refused-3', 'refused-first']);
    // The interleaved attempt was rolled back, then each request ran again in a savepoint of its own.
    expect(runs).toEqual(Array.from({ length: 4 }, () => [true, false]));
  });

  it('keeps an SQL error of an interleaved batch its request’s own: the others commit', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const first = group.run('k', (tx) => tag(tx, 'sqlerr-first'));
    const outcomes = Promise.allSettled(
      [0, 1, 2, 3].map((i) =>
        group.run(
          'k',
          async (tx) => {
            await tag(tx, `sqlerr-${i}`);
            if (i === 1) await tag(tx, 'sqlerr-1'); // unique violation: aborts the shared transaction
            return i;
          },
          interleave,
        ),
      ),
    );
    await first;
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect(await tags('sqlerr-')).toEqual(['sqlerr-0', 'sqlerr-2', 'sqlerr-3', 'sqlerr-first']);
  });

  it('runs a request that calls isolate() again in a savepoint of its own, and it succeeds', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const { runs, record } = runsLog(3);
    const first = group.run('k', (tx) => tag(tx, 'isolate-first'));
    const batch = [0, 1, 2].map((i) =>
      group.run(
        'k',
        async (tx) => {
          record(i, tx);
          await tag(tx, `isolate-${i}`);
          if (i === 1) isolate(tx); // a read another request may change: it asks for a savepoint
          return `done-${i}`;
        },
        interleave,
      ),
    );
    await first;
    expect(await Promise.all(batch)).toEqual(['done-0', 'done-1', 'done-2']);
    expect(runs[1]).toEqual([true, false]);
    expect(runs).toEqual(Array.from({ length: 3 }, () => [true, false]));
    expect(await tags('isolate-')).toEqual(['isolate-0', 'isolate-1', 'isolate-2', 'isolate-first']);
    expect(await transactionsOf('isolate-')).toBe(2);

    // The lane keeps savepoints for the next batches, then interleaves again.
    const next: boolean[] = [];
    for (let i = 0; i < 32 && !next.at(-1); i++)
      next.push(await group.run('k', async (tx) => isInterleaved(tx), interleave));
    expect(next[0]).toBe(false);
    expect(next.at(-1)).toBe(true);
  });

  it('fails every request of an interleaved batch whose COMMIT fails, keeps none and runs none again', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const ran = [0, 0, 0, 0];
    const first = group.run('k', (tx) => tag(tx, 'commit-first'));
    const outcomes = Promise.allSettled(
      ['a', 'b', 'boom', 'c'].map((name, i) =>
        group.run(
          'k',
          async (tx) => {
            ran[i]!++;
            await tag(tx, `commit-${name}`);
            return name;
          },
          interleave,
        ),
      ),
    );
    await first;
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    for (const o of settled)
      expect(String((o as PromiseRejectedResult).reason?.message)).toContain('refused at commit');
    expect(await tags('commit-')).toEqual(['commit-first']);
    expect(ran).toEqual([1, 1, 1, 1]);
  });

  it('runs a batch mixing interleaved and other requests with savepoints, as before', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const { runs, record } = runsLog(5);
    const options = [interleave, {}, interleave, { savepoint: false }, interleave];
    const first = group.run('k', (tx) => tag(tx, 'mixed-first'));
    const outcomes = Promise.allSettled(
      options.map((option, i) =>
        group.run(
          'k',
          async (tx) => {
            record(i, tx);
            await tag(tx, `mixed-${i}`);
            if (i === 2) throw new AppError('invalid_state', 'refused alone');
            return i;
          },
          option,
        ),
      ),
    );
    await first;
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_state' });
    expect(await tags('mixed-')).toEqual(['mixed-0', 'mixed-1', 'mixed-3', 'mixed-4', 'mixed-first']);
    // No interleaved attempt: each ran once, never side by side without a savepoint.
    expect(runs).toEqual(Array.from({ length: 5 }, () => [false]));
    expect(await transactionsOf('mixed-')).toBe(2);

    // Interleaved requests with different lock timeouts do not interleave either.
    const timeouts = runsLog(2);
    const blocker = group.run('k', (tx) => tag(tx, 'timeouts-first'));
    const both = [100, 200].map((lockTimeoutMs, i) =>
      group.run('k', async (tx) => timeouts.record(i, tx), { interleave: true, lockTimeoutMs }),
    );
    await blocker;
    await Promise.all(both);
    expect(timeouts.runs).toEqual([[false], [false]]);
  });
});
