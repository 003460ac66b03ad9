/**
 * Group commit with after-commit metrics: a request refused inside a group-commit
 * batch is rolled back to its savepoint, but the after-commit hooks it registered (payment transition
 * and ledger posting counters) stayed on the shared transaction and ran at the batch's COMMIT, counting
 * what never happened.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { afterCommit, type Database } from '../../src/db/types.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

it('runs the after-commit hooks of the requests that committed, never of one rolled back to its savepoint', async () => {
  const group = new GroupCommit(db, { lanes: 1 });
  const ran: string[] = [];
  const request = (name: string, fail: boolean) =>
    group.run('workspace', async (tx) => {
      await tx.query('SELECT 1');
      afterCommit(tx, () => ran.push(name));
      if (fail) throw new Error(`${name} refused`);
      return name;
    });
  const outcomes = await Promise.allSettled([request('a', false), request('b', true), request('c', false)]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(ran.sort()).toEqual(['a', 'c']);
});
