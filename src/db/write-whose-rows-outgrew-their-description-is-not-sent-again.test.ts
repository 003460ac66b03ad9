import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../../test/support/database.ts';
import { testServerUrl } from '../../test/support/database-url.ts';
import { openPostgres } from './postgres.ts';
import { type Database, isRetryable } from './types.ts';

/**
 * What a transaction-mode pooler does after a migration: the statement prepared again, on a server
 * connection that never held it, under the name the process knows, against the new columns.
 */
async function prepareAgainAfter(db: Database, text: string, migration: string) {
  const { rows } = await db.query<{ name: string; types: string[] }>(
    // A statement prepared by PREPARE shows the whole command: its text is at the end.
    'SELECT name, parameter_types::text[] AS types FROM pg_prepared_statements WHERE right(statement, length($1)) = $1',
    [text],
  );
  const { name, types } = rows[0]!;
  await db.exec(`DEALLOCATE ${name}; ${migration}; PREPARE ${name} (${types.join(', ')}) AS ${text}`);
}

describe.runIf(onRealPostgres())('a statement whose kept description no longer fits its rows', () => {
  const suffix = `${process.pid}_${Date.now()}`;
  const tables: string[] = [];
  let db: Database;
  /** A table of the test's own, with one row (1, 0). */
  async function counters(name: string): Promise<string> {
    const table = `${name}_${suffix}`;
    tables.push(table);
    await db.exec(
      `CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL); INSERT INTO ${table} VALUES (1, 0)`,
    );
    return table;
  }
  beforeAll(() => {
    // One connection: the statement is prepared, and prepared again, where the next run finds it.
    db = openPostgres(testServerUrl()!, 1);
  });
  afterAll(async () => {
    for (const table of tables) await db?.exec(`DROP TABLE IF EXISTS ${table}`);
    await db?.close();
  });

  it('is refused once, not as a conflict to retry, never sent again, and read whole next time', async () => {
    const table = await counters('bumped');
    const text = `UPDATE ${table} SET n = n + 1 WHERE id = $1 RETURNING *`;
    expect((await db.query(text, [1])).rows).toEqual([{ id: 1, n: 1 }]);
    await prepareAgainAfter(db, text, `ALTER TABLE ${table} ADD COLUMN note text`);
    const refused = await db.query(text, [1]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ message: /the statement ran/ });
    // Its write committed: a retry of the whole request would not undo it first.
    expect(isRetryable(refused)).toBe(false);
    // It ran once (its rows were refused after it did): a second run would have made it 3.
    expect((await db.query(`SELECT n FROM ${table}`)).rows).toEqual([{ n: 2 }]);
    expect((await db.query(text, [1])).rows).toEqual([{ id: 1, n: 3, note: null }]);
  });

  it('in a transaction, is refused as stale: the transaction rolls it back and runs again', async () => {
    const table = await counters('retried');
    const text = `UPDATE ${table} SET n = n + 1 WHERE id = $1 RETURNING *`;
    await db.query(text, [1]);
    await prepareAgainAfter(db, text, `ALTER TABLE ${table} ADD COLUMN note text`);
    const rows = await db.transaction(async (tx) => (await tx.query(text, [1])).rows);
    expect(rows).toEqual([{ id: 1, n: 2, note: null }]);
  });

  it('is described on every run with DATABASE_POOL_MODE=transaction, so a change of type is read', async () => {
    const table = await counters('typed');
    const described = openPostgres(testServerUrl()!, 1, { describeEveryRun: true });
    try {
      const text = `SELECT * FROM ${table} WHERE id = $1`;
      await described.query(text, [1]);
      await prepareAgainAfter(described, text, `ALTER TABLE ${table} ALTER COLUMN n TYPE bigint`);
      expect((await described.query(text, [1])).rows).toEqual([{ id: 1, n: 0n }]);
      // The same in a transaction: its statements are described on every run too.
      await described.transaction(async (tx) => tx.query(text, [1]));
      await prepareAgainAfter(described, text, `ALTER TABLE ${table} ALTER COLUMN n TYPE int`);
      const rows = await described.transaction(async (tx) => (await tx.query(text, [1])).rows);
      expect(rows).toEqual([{ id: 1, n: 0 }]);
    } finally {
      await described.close();
    }
  });
});
