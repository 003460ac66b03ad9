/**
 * Group commit lanes are bounded by maxQueue and maxWaitMs; the wait limit was once only
 * checked when the lane drained, after its running batch ended. A batch that does not end (a request
 * waiting on a row lock with lock_timeout 0, a function that never settles) held every request
 * queued behind it with no answer at all, however long past maxWaitMs: the 503 overloaded refusal
 * never came. A waiting request is now refused once its wait limit passes, even while the lane is held.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Database } from '../../src/db/types.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

it('a request waiting behind a batch that does not end is refused once its wait limit passes', async () => {
  const group = new GroupCommit(db, { lanes: 1, maxWaitMs: 200 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const first = group.run('k', async () => gate);
  let ran = false;
  const waiting = group.run('k', async () => {
    ran = true;
  });
  const outcome = await Promise.race([
    waiting.then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    ),
    new Promise((resolve) => setTimeout(() => resolve('no answer'), 2000)),
  ]);
  release();
  await first;
  expect(outcome).toBe('overloaded');
  expect(ran).toBe(false);
  // The lane goes on.
  await expect(group.run('k', async () => 'next')).resolves.toBe('next');
});
