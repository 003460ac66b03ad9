/**
 * A request whose function throws a refusal before it returns a promise is refused alone, as one that
 * rejects is, whether its batch runs interleaved (src/db/group-commit.ts, `interleave`) or side by side
 * without savepoints (`savepoint: false`): the others commit, each of their writes once. Before, the
 * throw left the attempt or step at once: every request of the batch got that request's error, and a
 * request still writing sent its next statements on a connection whose transaction was rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit, type GroupWriteOptions } from '../../src/db/group-commit.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec('CREATE TABLE gc_sync_probe (tag text PRIMARY KEY)');
});
afterAll(() => db.close());

const tag = (tx: Tx, value: string) => tx.query('INSERT INTO gc_sync_probe (tag) VALUES ($1)', [value]);
const tags = async (prefix: string) =>
  (
    await db.query<{ tag: string }>('SELECT tag FROM gc_sync_probe WHERE tag LIKE $1 ORDER BY tag', [
      `${prefix}%`,
    ])
  ).rows.map((row) => row.tag);

/** One plain request, then a writer and a thrower queued behind it: they share the next batch. */
async function batchWithAThrower(prefix: string, options: GroupWriteOptions) {
  const group = new GroupCommit(db, { lanes: 1 });
  const first = group.run('k', (tx) => tag(tx, `${prefix}-first`));
  const writer = group.run(
    'k',
    async (tx) => {
      await tag(tx, `${prefix}-writer-1`);
      await tag(tx, `${prefix}-writer-2`);
      return 'written';
    },
    options,
  );
  const thrower = group.run(
    'k',
    (() => {
      throw new AppError('invalid_amount', 'refused before any statement');
    }) as (tx: Tx) => Promise<never>,
    options,
  );
  return Promise.allSettled([first, writer, thrower]);
}

describe('GroupCommit, a request that throws at once', () => {
  for (const [mode, options] of [
    ['interleaved', { interleave: true }],
    ['side by side without savepoints', { savepoint: false }],
  ] as const) {
    it(`is refused alone when ${mode}; the others of its batch commit, each write once`, async () => {
      const prefix = mode.split(' ')[0]!;
      const outcomes = await batchWithAThrower(prefix, options);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseFulfilledResult<unknown>).value).toBe('written');
      expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_amount' });
      expect(await tags(prefix)).toEqual([`${prefix}-first`, `${prefix}-writer-1`, `${prefix}-writer-2`]);
    });
  }
});
