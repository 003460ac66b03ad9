/**
 * A tx.later() write is pipelined, nobody awaits it, so when it fails the request
 * only sees the next statement it awaits refused with 25P02 (current transaction is aborted). That
 * 25P02 was the request's error: a later() write chosen as a deadlock victim (40P01) was answered 500
 * instead of being run again, and any other failure of a later() write was reported as 25P02, its
 * cause lost. The error that aborted the transaction is the request's error.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(
    'CREATE TABLE lw_rows (tag text PRIMARY KEY); CREATE TABLE lw_locks (id int PRIMARY KEY); INSERT INTO lw_locks VALUES (1), (2)',
  );
});
afterAll(() => db.close());

const codeOf = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'rejected' ? (outcome.reason as { code?: string }).code : 'fulfilled';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A write whose later() insert collides, then a statement that finds the transaction aborted. */
const collide = (tag: string) => async (tx: Tx) => {
  await tx.query('INSERT INTO lw_rows VALUES ($1)', [tag]);
  tx.later('INSERT INTO lw_rows VALUES ($1)', [tag]);
  await tx.query('SELECT 1');
  return tag;
};

it('a failed later() write is the request’s error, in a group-commit batch and in a transaction', async () => {
  const group = new GroupCommit(db, { lanes: 1 });
  const [grouped] = await Promise.allSettled([group.run('k', collide('g'))]);
  expect(codeOf(grouped!)).toBe('23505');
  const [alone] = await Promise.allSettled([db.transaction(collide('t'))]);
  expect(codeOf(alone!)).toBe('23505');
});

it.skipIf(!onRealPostgres())('a later() write refused as a deadlock victim runs again', async () => {
  for (const via of ['group', 'transaction'] as const) {
    const group = new GroupCommit(db, { lanes: 1 });
    let attempts = 0;
    // Another transaction takes row 2, then wants row 1: the request holds row 1 and wants row 2 in a later() write.
    const other = db.transaction(
      async (tx) => {
        await tx.query('SELECT 1 FROM lw_locks WHERE id = 2 FOR UPDATE');
        await sleep(400);
        await tx.query('SELECT 1 FROM lw_locks WHERE id = 1 FOR UPDATE');
        await sleep(300);
      },
      { retries: 0 },
    );
    other.catch(() => {});
    await sleep(100);
    const write = async (tx: Tx) => {
      attempts++;
      await tx.query('SELECT 1 FROM lw_locks WHERE id = 1 FOR UPDATE');
      tx.later('UPDATE lw_locks SET id = id WHERE id = 2');
      await tx.query('INSERT INTO lw_rows VALUES ($1)', [`${via}-${attempts}`]);
      return 'written';
    };
    const outcomes = await Promise.allSettled([
      via === 'group' ? group.run('k', write) : db.transaction(write),
      other,
    ]);
    // Exactly one of the two is the deadlock's victim; when it is the request, it is run again and commits.
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused.map(codeOf)).toEqual(attempts > 1 ? [] : ['40P01']);
    expect(codeOf(outcomes[0]!)).toBe('fulfilled');
  }
});
