import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ProgressReporter, SILENT } from '../platform/progress.ts';
import { distributeSchema } from './distribute.ts';
import type { Database, Queryable } from './types.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only has to be the same for every process migrating one database.
const MIGRATION_LOCK = 7_466_115;

const migrationFiles = async () =>
  (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();

const UNDEFINED_TABLE = '42P01';

/** The migrations this code has that the database has not recorded (all of them on a fresh database). */
export async function pendingMigrations(db: Queryable): Promise<string[]> {
  const files = await migrationFiles();
  const done = await db.query<{ name: string }>('SELECT name FROM schema_migrations').then(
    (result) => new Set(result.rows.map((row) => row.name)),
    (error) => {
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return new Set<string>();
      throw error;
    },
  );
  return files.filter((name) => !done.has(name));
}

/**
 * Applies every migration in src/db/migrations not yet recorded, in name order, in one transaction;
 * `progress` hears of each migration and each table distributed (nothing by default).
 */
export async function migrate(db: Database, progress: ProgressReporter = SILENT): Promise<string[]> {
  const applied = await applyPending(db, progress);
  // On a Citus cluster the schema is then distributed by workspace (src/db/distribute.ts); elsewhere,
  // and once every table is placed, this reads two catalogs and changes nothing.
  await distributeSchema(db, progress);
  return applied;
}

async function applyPending(db: Database, progress: ProgressReporter): Promise<string[]> {
  const pending = await pendingMigrations(db);
  // Nothing pending: no DDL and no lock, so a service role without CREATE rights starts too.
  if (pending.length === 0) return [];
  const task = progress.task('migrate', pending.length);
  const files = await migrationFiles();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((row) => row.name),
    );
    for (const name of files) {
      if (done.has(name)) continue;
      task.step(name);
      const sql = await readFile(path.join(MIGRATIONS_DIR, name), 'utf8');
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
  });
  task.done(`${applied.length} migration(s) applied`);
  return applied;
}
