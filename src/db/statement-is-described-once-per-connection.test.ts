import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../../test/support/database.ts';
import { testServerUrl } from '../../test/support/database-url.ts';
import { LeanQuery } from './lean-query.ts';

/** A client whose Describe messages are counted: what the server is asked to describe. */
async function countingClient() {
  const client = new pg.Client({ connectionString: testServerUrl() });
  await client.connect();
  const connection = (client as unknown as { connection: { describe(message: unknown): void } }).connection;
  const describe = connection.describe.bind(connection);
  const counter = { describes: 0 };
  connection.describe = (message: unknown) => {
    counter.describes++;
    describe(message);
  };
  return { client, counter };
}

function run(client: pg.Client, config: { name?: string; text: string; values?: unknown[] }) {
  const query = new LeanQuery(config);
  return new Promise<pg.QueryResult>((resolve, reject) => {
    query.callback = (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult));
    client.query(query as unknown as pg.QueryConfig);
  });
}

/** Runs of one named statement on `client`, given its parameters. */
const statement =
  (client: pg.Client, name: string, text: string) =>
  (...values: unknown[]) =>
    run(client, { name, text, values });

describe.runIf(onRealPostgres())('a named statement run again on its connection', () => {
  let client: pg.Client;
  let counter: { describes: number };
  beforeAll(async () => {
    ({ client, counter } = await countingClient());
    await client.query(
      `CREATE TEMP TABLE parcels (id int PRIMARY KEY, weight bigint, sent_at timestamptz, tags jsonb, note text)`,
    );
    await client.query(
      `INSERT INTO parcels VALUES (1, 9007199254740993, '2026-01-02T03:04:05Z', '{"a":[1]}', NULL)`,
    );
  });
  afterAll(() => client?.end());

  it('is described once, and its later rows are parsed as the first were', async () => {
    const read = () =>
      run(client, { name: 'parcel_by_id', text: 'SELECT * FROM parcels WHERE id = $1', values: [1n] });
    const first = await read();
    const later = await Promise.all([read(), read(), read()]);
    expect(counter.describes).toBe(1);
    for (const result of later) {
      expect(result.rows).toEqual(first.rows);
      expect(result.fields.map((field) => field.name)).toEqual(['id', 'weight', 'sent_at', 'tags', 'note']);
    }
    expect(first.rows[0]).toEqual({
      id: 1,
      weight: 9007199254740993n,
      sent_at: new Date('2026-01-02T03:04:05Z'),
      tags: { a: [1] },
      note: null,
    });
  });

  it('that returns no rows is described once too, and still counts what it changed', async () => {
    const before = counter.describes;
    const touch = statement(client, 'parcel_weigh', 'UPDATE parcels SET weight = $1 WHERE id = 1');
    const results = [await touch(5n), await touch(6n), await touch(7n)];
    expect(counter.describes - before).toBe(1);
    expect(results.map((result) => [result.command, result.rowCount, result.rows])).toEqual([
      ['UPDATE', 1, []],
      ['UPDATE', 1, []],
      ['UPDATE', 1, []],
    ]);
    expect((await client.query('SELECT weight FROM parcels')).rows).toEqual([{ weight: 7n }]);
  });

  it('that failed before it was described is described when it next runs', async () => {
    const before = counter.describes;
    const insert = statement(client, 'parcel_new', 'INSERT INTO parcels (id) VALUES ($1) RETURNING id');
    // Refused at Bind: the server skips the Describe behind it, and no description is kept.
    await expect(insert('one')).rejects.toThrow(/invalid input syntax/);
    expect((await insert(2)).rows).toEqual([{ id: 2 }]);
    // Described before its Execute failed: the description stands.
    await expect(insert(2)).rejects.toThrow(/duplicate key/);
    expect((await insert(3)).rows).toEqual([{ id: 3 }]);
    expect(counter.describes - before).toBe(2);
  });

  it('whose parameters cannot be written is refused alone, and the connection goes on', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = { toPostgres: () => circular };
    circular.toPostgres = () => circular.self;
    const byNote = (note: unknown) =>
      run(client, { name: 'parcel_by_note', text: 'SELECT id FROM parcels WHERE note = $1', values: [note] });
    await byNote('none');
    await expect(byNote(circular)).rejects.toThrow(/circular/);
    expect((await byNote('none')).rows).toEqual([]);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('is described anew on a connection opened after its columns changed', async () => {
    // A table of its own: a connection of another session must see it, so it cannot be temporary.
    const table = `crates_${process.pid}_${Date.now()}`;
    const text = `SELECT * FROM ${table} WHERE id = $1`;
    await client.query(`CREATE TABLE ${table} (id int PRIMARY KEY); INSERT INTO ${table} VALUES (1)`);
    expect((await run(client, { name: 'crate', text, values: [1] })).rows).toEqual([{ id: 1 }]);
    await client.query(`ALTER TABLE ${table} ADD COLUMN colour text`);
    const { client: fresh } = await countingClient();
    try {
      expect((await run(fresh, { name: 'crate', text, values: [1] })).rows).toEqual([
        { id: 1, colour: null },
      ]);
      expect((await run(fresh, { name: 'crate', text, values: [1] })).rows).toEqual([
        { id: 1, colour: null },
      ]);
    } finally {
      await fresh.end();
      await client.query(`DROP TABLE ${table}`);
    }
  });

  it('whose rows no longer match their description is refused as stale, and described anew', async () => {
    await client.query('CREATE TEMP TABLE drums (id int PRIMARY KEY); INSERT INTO drums VALUES (1)');
    const read = () => run(client, { name: 'drum', text: 'SELECT * FROM drums WHERE id = $1', values: [1] });
    expect((await read()).rows).toEqual([{ id: 1 }]);
    // What a pooler in transaction mode does: the statement prepared again, on a server connection
    // that never held it, after a migration added a column.
    await client.query(
      'DEALLOCATE drum; ALTER TABLE drums ADD COLUMN colour text; PREPARE drum (int) AS SELECT * FROM drums WHERE id = $1',
    );
    await expect(read()).rejects.toMatchObject({ code: '0A000', message: /cached plan must not change/ });
    expect((await read()).rows).toEqual([{ id: 1, colour: null }]);
  });
});
