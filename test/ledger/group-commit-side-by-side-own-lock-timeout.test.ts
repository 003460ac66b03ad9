/**
 * A group-commit write without a savepoint (side by side) once did not set its own
 * lock_timeout: it ran under whatever the request before it in the batch had set with SET LOCAL
 * (an Idempotency-Key wait of 10 s, say), and its own lockTimeoutMs was ignored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const lockTimeout = async (tx: Tx) =>
  (await tx.query<{ t: string }>("SELECT current_setting('lock_timeout') AS t")).rows[0]!.t;

it('a write without a savepoint runs under its own lock timeout, not the previous request’s', async () => {
  const group = new GroupCommit(db, { lanes: 1 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Holds the lane so that the next three writes meet in one batch.
  const first = group.run('k', async () => gate);
  const waiting = group.run('k', lockTimeout, { lockTimeoutMs: 7000 });
  const sideBySide = group.run('k', lockTimeout, { savepoint: false, lockTimeoutMs: 3000 });
  const unbounded = group.run('k', lockTimeout, { savepoint: false });
  release();
  await first;
  expect(await waiting).toBe('7s');
  expect(await sideBySide).toBe('3s');
  expect(await unbounded).toBe('0');
});
