import { pendingMigrations } from '../db/migrate.ts';
import type { Database } from '../db/types.ts';
import type { WorkerLiveness } from './context.ts';
import { databaseUnavailable } from './http-errors.ts';

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: {
    database: 'ok';
    /** `pending`: this code expects migrations the database has not applied (run `lastro migrate`). */
    migrations: 'ok' | 'pending';
    /** `not_running`: this process runs no background tasks (`serve --no-workers`), which is fine. */
    workers: 'ok' | 'stalled' | 'not_running';
  };
  pending_migrations: string[];
  stalled_tasks: string[];
}

/**
 * Whether this process can take traffic: the database answers, its schema is the one this code
 * expects, and the background loops it runs (if any) still beat. An unreachable database throws
 * database_unavailable (503), as every route does.
 */
export async function readiness(db: Database, workers: WorkerLiveness | undefined): Promise<Readiness> {
  let pending: string[];
  try {
    pending = await pendingMigrations(db);
  } catch {
    throw databaseUnavailable();
  }
  const stalled = workers?.stalled() ?? [];
  const workersCheck =
    !workers || workers.taskCount === 0 ? 'not_running' : stalled.length ? 'stalled' : 'ok';
  return {
    status: pending.length === 0 && stalled.length === 0 ? 'ready' : 'not_ready',
    checks: { database: 'ok', migrations: pending.length ? 'pending' : 'ok', workers: workersCheck },
    pending_migrations: pending,
    stalled_tasks: stalled,
  };
}
