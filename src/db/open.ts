import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Database } from './types.ts';

export class DataDirLockedError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite happily lets two processes open one directory and then corrupts it, so the
 * directory is guarded by a lock file holding the owner's pid; a stale lock is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'lastro.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && processAlive(owner)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dataDir} is in use by process ${owner}. Stop it, or point DATA_DIR at another directory.`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock DATA_DIR ${dataDir}`);
}

const INVALID_CATALOG_NAME = '3D000';

/** A first start on a fresh server creates the named database, so DATABASE_URL is all it takes. */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    await probe.end();
    return;
  } catch (error) {
    await probe.end().catch(() => {});
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) throw error;
  }
  // Not WHATWG URL: libpq's empty host (`user@/db?host=/dir`) is not one, and pg takes it as written.
  const [, authority, path = '', rest] = url.match(/^([a-z]+:\/\/[^/?#]*)(?:\/([^?#]*))?(.*)$/is)!;
  // decodeURI, as pg itself reads the name: %23 stays %23, so both speak of the same database.
  const name = decodeURI(path);
  const admin = new pg.Client({ connectionString: `${authority}/postgres${rest}` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // Another process created it first.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await admin.end();
  }
}

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded PGlite in DATA_DIR. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    await ensurePostgresDatabase(config.databaseUrl);
    return openPostgres(config.databaseUrl, 20, {
      describeEveryRun: config.databasePoolMode === 'transaction',
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(path.join(config.dataDir, 'pgdata'));
    return {
      ...db,
      close: async () => {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
