import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onRealPostgres } from '../../test/support/database.ts';
import type { Database } from './types.ts';

describe.runIf(onRealPostgres())('a statement prepared before a migration changed its columns', () => {
  let db: Database;
  afterAll(() => db?.close());

  it('is prepared again: alone at once, in a transaction on its retry', async () => {
    db = await createTestDatabase();
    await db.exec(
      'CREATE TABLE widgets (id int PRIMARY KEY, name text); INSERT INTO widgets VALUES (1, $$a$$)',
    );
    const read = (q: Pick<Database, 'query'>) => q.query('SELECT * FROM widgets WHERE id = $1', [1]);
    // Every connection of the pool prepares it, so the one that answers next holds the old form.
    await Promise.all(Array.from({ length: 8 }, () => read(db)));
    await db.exec('ALTER TABLE widgets ADD COLUMN colour text');
    expect((await read(db)).rows).toEqual([{ id: 1, name: 'a', colour: null }]);
    await Promise.all(Array.from({ length: 8 }, () => read(db)));
    await db.exec('ALTER TABLE widgets ADD COLUMN size int');
    const rows = await db.transaction(async (tx) => (await read(tx)).rows);
    expect(rows).toEqual([{ id: 1, name: 'a', colour: null, size: null }]);
    const many = await Promise.all(Array.from({ length: 8 }, () => read(db)));
    expect(many.every((result) => result.rows[0]?.size === null)).toBe(true);
  });
});
