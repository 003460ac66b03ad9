/**
 * libpq's form for a Unix socket, `postgres://user@/db?host=/dir` (an empty host), was refused at
 * start as "DATABASE_URL must be a URL": WHATWG URL parsing needs a host, pg does not.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import { testServerUrl } from '../support/database-url.ts';

it('an empty host is accepted, and the host parameter still decides', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://app@/lastro?host=/var/run/postgresql' });
  const parts = new pg.Client({ connectionString: config.databaseUrl });
  expect(parts.host).toBe('/var/run/postgresql');
  expect(parts.database).toBe('lastro');
  expect(parts.user).toBe('app');
  // Handed to pg as written: without ?host=, PGHOST (or pg's default) still decides.
  const withPort = 'postgres://app@:5433/lastro';
  expect(loadConfig({ DATABASE_URL: withPort }).databaseUrl).toBe(withPort);
  expect(() => loadConfig({ DATABASE_URL: 'postgres://app@:port/lastro' })).toThrow(/DATABASE_URL/);
});

const server = testServerUrl();

it.skipIf(!server)('the service opens PostgreSQL named with an empty host', async () => {
  const { username, hostname, port } = new URL(server!);
  const name = `lastro_emptyhost_${process.pid}_${Date.now()}`;
  const url = `postgres://${username}@/${name}?host=${hostname}&port=${port || 5432}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const db = await openDatabase(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url }));
    const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
    await db.close();
    expect(rows[0]!.name).toBe(name);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
});
