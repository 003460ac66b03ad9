/**
 * After-commit hooks (src/db/types.ts): committed() once ran the hooks inside
 * the drivers' try block, after COMMIT and after the connection was released. A hook that threw made
 * a transaction that had committed reject (a durable write answered as failed; under group commit a
 * whole batch), and on PostgreSQL the catch sent ROLLBACK on a connection already back in the pool.
 * A throwing hook is now skipped; the transaction resolves and later hooks still run.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { afterCommit, type Database } from '../../src/db/types.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec('CREATE TABLE IF NOT EXISTS hook_probe (v int)');
});
afterAll(() => db.close());

it('a throwing after-commit hook does not fail the committed transaction', async () => {
  let later = false;
  const outcome = await db
    .transaction(async (tx) => {
      await tx.query('INSERT INTO hook_probe (v) VALUES (1)');
      afterCommit(tx, () => {
        throw new Error('hook failed');
      });
      afterCommit(tx, () => {
        later = true;
      });
      return 'done';
    })
    .catch((error: Error) => `rejected: ${error.message}`);
  expect(outcome).toBe('done');
  expect(later).toBe(true);
  expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM hook_probe')).rows[0]!.n).toBe(1);
});
