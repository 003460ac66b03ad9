/**
 * A request of a side-by-side step (savepoint: false) refused with an AppError sends none of what it
 * still held; its after-commit hooks must not run either, or a metric would count a row that was never
 * written.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { afterCommit, type Database, type Tx } from '../../src/db/types.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec('CREATE TABLE sbs_held_rows (tag text PRIMARY KEY)');
});
afterAll(() => db.close());

it('a refused side-by-side request whose held row is dropped runs no after-commit hook', async () => {
  const group = new GroupCommit(db, { lanes: 1 });
  const counted: string[] = [];
  const write = (tag: string, refuse: boolean) => async (tx: Tx) => {
    // As createPayment does: the row held, its transition counted after COMMIT.
    tx.hold({ text: 'INSERT INTO sbs_held_rows (tag) VALUES ($1)', params: [tag] });
    afterCommit(tx, () => counted.push(tag));
    if (refuse) throw new AppError('invalid_state', `${tag} refused`);
    return tag;
  };
  const outcomes = await Promise.allSettled([
    group.run('k', write('ok', false), { savepoint: false }),
    group.run('k', write('refused', true), { savepoint: false }),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
  const { rows } = await db.query<{ tag: string }>('SELECT tag FROM sbs_held_rows ORDER BY tag');
  expect(rows.map((r) => r.tag)).toEqual(['ok']);
  // Hooks must match what was written.
  expect(counted.sort()).toEqual(rows.map((r) => r.tag));
});
