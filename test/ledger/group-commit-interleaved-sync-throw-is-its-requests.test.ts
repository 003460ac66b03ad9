/**
 * A request of an interleaved batch (src/db/group-commit.ts) whose function throws before it returns a
 * promise is refused alone, as one that rejects is: the attempt is rolled back once every request has
 * stopped sending, and the batch runs again with a savepoint each. Before, the throw left the attempt
 * at once: every request of the batch was answered with that request's error, and a request still
 * writing sent its next statements on a connection whose transaction had already been rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
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
const tags = async () =>
  (await db.query<{ tag: string }>('SELECT tag FROM gc_sync_probe ORDER BY tag')).rows.map((row) => row.tag);

describe('GroupCommit, an interleaved request that throws at once', () => {
  it('is refused alone; the others of its batch commit, each of their writes once', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    // The first runs alone while the others queue: they then share one batch.
    const first = group.run('k', (tx) => tag(tx, 'first'));
    const writer = group.run(
      'k',
      async (tx) => {
        await tag(tx, 'writer-1');
        await tag(tx, 'writer-2');
        return 'written';
      },
      { interleave: true },
    );
    const thrower = group.run(
      'k',
      (() => {
        throw new AppError('invalid_amount', 'refused before any statement');
      }) as (tx: Tx) => Promise<never>,
      { interleave: true },
    );
    const outcomes = await Promise.allSettled([first, writer, thrower]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[1] as PromiseFulfilledResult<unknown>).value).toBe('written');
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_amount' });
    expect(await tags()).toEqual(['first', 'writer-1', 'writer-2']);
  });
});
