/**
 * A request without a savepoint (src/db/group-commit.ts, `savepoint: false`) whose function throws a
 * refusal before it returns a promise is refused alone, as one that rejects is: the others of its
 * step commit. Before, the throw left the step at once and every request of the batch got its error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec('CREATE TABLE gc_side_probe (tag text PRIMARY KEY)');
});
afterAll(() => db.close());

const tag = (tx: Tx, value: string) => tx.query('INSERT INTO gc_side_probe (tag) VALUES ($1)', [value]);
const tags = async () =>
  (await db.query<{ tag: string }>('SELECT tag FROM gc_side_probe ORDER BY tag')).rows.map((row) => row.tag);

describe('GroupCommit, a request without a savepoint that throws at once', () => {
  it('is refused alone; the others of its step commit', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    // The first runs alone while the others queue: they then share one step of one batch.
    const first = group.run('k', (tx) => tag(tx, 'first'));
    const writer = group.run(
      'k',
      async (tx) => {
        await tag(tx, 'writer');
        return 'written';
      },
      { savepoint: false },
    );
    const thrower = group.run(
      'k',
      (() => {
        throw new AppError('invalid_amount', 'refused before any statement');
      }) as (tx: Tx) => Promise<never>,
      { savepoint: false },
    );
    const outcomes = await Promise.allSettled([first, writer, thrower]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_amount' });
    expect(await tags()).toEqual(['first', 'writer']);
  });
});
