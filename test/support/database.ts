import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { createCitusDatabase, dropCitusDatabase } from './citus.ts';
import { testServerUrl, withDatabase } from './database-url.ts';

let counter = 0;

/** A fresh, migrated database of its own for one test file (or one test). */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = testServerUrl();
  if (serverUrl && inject('citusWorkers').length > 0) return createOnCitus(serverUrl, inject('citusWorkers'));
  if (serverUrl) {
    const name = `lastro_t_${inject('runId')}_${process.pid}_${counter++}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    await admin.end();
    const db = openPostgres(withDatabase(serverUrl, name), 40);
    return {
      ...db,
      close: async () => {
        await db.close();
        const dropper = new pg.Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteDump'));
  return openPglite(undefined, new Blob([dump]));
}

export const onRealPostgres = (): boolean => testServerUrl() !== undefined;

/** True when the tests run on a Citus cluster (TEST_DATABASE_URL at a coordinator with workers). */
export const onCitus = (): boolean => inject('citusWorkers').length > 0;

async function createOnCitus(serverUrl: string, workers: string[]): Promise<Database> {
  const name = `lastro_c_${inject('runId')}_${process.pid}_${counter++}`;
  await createCitusDatabase(serverUrl, workers, name);
  const db = openPostgres(withDatabase(serverUrl, name), 40);
  await migrate(db);
  return {
    ...db,
    close: async () => {
      await db.close();
      await dropCitusDatabase(serverUrl, workers, name);
    },
  };
}
