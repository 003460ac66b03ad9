import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../../test/support/database.ts';
import { testServerUrl } from '../../test/support/database-url.ts';
import { openPostgres } from './postgres.ts';
import type { Database } from './types.ts';

/**
 * What a transaction-mode pooler does after a migration: the statement prepared again, on a server
 * connection that never held it, under the name the process knows, against the new columns.
 */
async function prepareAgainAfter(db: Database, text: string, migration: string) {
  const { rows } = await db.query<{ name: string; types: string[] }>(
    'SELECT name, parameter_types::text[] AS types FROM pg_prepared_statements WHERE statement = $1',
    [text],
  );
  const { name, types } = rows[0]!;
  await db.exec(`DEALLOCATE ${name}; ${migration}; PREPARE ${name} (${types.join(', ')}) AS ${text}`);
}

describe.runIf(onRealPostgres())('a statement whose kept description no longer fits its rows', () => {
  const table = `counters_${process.pid}_${Date.now()}`;
  let db: Database;
  beforeAll(async () => {
    // One connection: the statement is prepared, and prepared again, where the next run finds it.
    db = openPostgres(testServerUrl()!, 1);
    await db.exec(
      `CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL); INSERT INTO ${table} VALUES (1, 0)`,
    );
  });
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${table}`);
    await db?.close();
  });

  it('is refused as stale once, never sent again by itself, and read whole the next time', async () => {
    const text = `UPDATE ${table} SET n = n + 1 WHERE id = $1 RETURNING *`;
    expect((await db.query(text, [1])).rows).toEqual([{ id: 1, n: 1 }]);
    await prepareAgainAfter(db, text, `ALTER TABLE ${table} ADD COLUMN note text`);
    await expect(db.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
    // It ran once (its rows were refused after it did): a second run would have made it 3.
    expect((await db.query(`SELECT n FROM ${table}`)).rows).toEqual([{ n: 2 }]);
    expect((await db.query(text, [1])).rows).toEqual([{ id: 1, n: 3, note: null }]);
  });

  it('is described on every run with DATABASE_POOL_MODE=transaction, so a change of type is read', async () => {
    const described = openPostgres(testServerUrl()!, 1, { describeEveryRun: true });
    try {
      const text = `SELECT * FROM ${table} WHERE id = $1`;
      await described.query(text, [1]);
      await prepareAgainAfter(described, text, `ALTER TABLE ${table} ALTER COLUMN n TYPE bigint`);
      expect((await described.query(text, [1])).rows).toEqual([{ id: 1, n: 3n, note: null }]);
    } finally {
      await described.close();
    }
  });
});
