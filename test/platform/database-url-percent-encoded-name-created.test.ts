/**
 * PostgreSQL only (run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test):
 * src/db/open.ts ensurePostgresDatabase decodes the database name of DATABASE_URL with
 * decodeURIComponent, but pg (pg-connection-string) decodes it with decodeURI. For a name with a
 * percent-encoded reserved character (%23 '#', %3F '?', %2F '/', %26 '&', %40 '@' …) the two differ:
 * the first start creates "lastro#dev" while every connection asks for "lastro%23dev", so the server
 * never starts (3D000 again after the CREATE) and leaves a stray database behind.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';

const server = testServerUrl();

it.skipIf(!server)('DATABASE_URL naming a missing database with %23 in its name starts', async () => {
  const suffix = `${process.pid}_${Date.now()}`;
  const encoded = `lastro_r4%23${suffix}`;
  const url = withDatabase(server!, encoded);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), databaseUrl: url };
    const db = await openDatabase(config);
    const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
    await db.close();
    expect(rows[0]!.name).toBe(`lastro_r4%23${suffix}`);
  } finally {
    for (const name of [`lastro_r4%23${suffix}`, `lastro_r4#${suffix}`]) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    await admin.end();
  }
});
