import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { citusWorkers, dropCitusDatabase } from './citus.ts';
import { testServerUrl, withDatabase } from './database-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string;
    runId: string;
    /** The workers of the Citus cluster the tests run on; empty on PGlite and plain PostgreSQL. */
    citusWorkers: string[];
  }
}

/**
 * Migrates one database per run; each test file then gets a copy: a CREATE DATABASE … TEMPLATE on
 * PostgreSQL, a load of the dumped data directory on PGlite. Migrating per file would cost seconds each.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  project.provide('runId', runId);
  const serverUrl = testServerUrl();
  const workers = serverUrl ? await citusWorkers(serverUrl) : [];
  project.provide('citusWorkers', workers);
  if (serverUrl && workers.length > 0) {
    // Each test file makes and migrates its own database on every node (test/support/citus.ts).
    project.provide('pgTemplate', '');
    project.provide('pgliteDump', '');
    return async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`lastro_%${runId}%`],
      );
      await admin.end();
      for (const { datname } of rows) await dropCitusDatabase(serverUrl, workers, datname);
    };
  }
  if (serverUrl) {
    const template = `lastro_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const db = openPostgres(withDatabase(serverUrl, template), 2);
    await migrate(db);
    await db.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', '');
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`lastro_%${runId}%`],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-test-'));
  const db = await openPglite();
  await migrate(db);
  const dump = await db.raw.dumpDataDir('none');
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteDump', file);
  project.provide('pgTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
