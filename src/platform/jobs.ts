import type { Queryable } from '../db/types.ts';
import type { Deps } from './context.ts';
import { newId } from './ids.ts';
import type { BackgroundTask } from './tasks.ts';

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: string;
  payload: P;
  attempts: number;
}

/** What a handler says about a job it ran: done, or run again later. */
export type JobOutcome = { done: true } | { done: false; retryAt: Date; reason: string };

export type JobHandler = (deps: Deps, job: Job) => Promise<JobOutcome>;

const handlers = new Map<string, JobHandler>();

export function registerJobHandler(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

const LEASE_MS = 60_000;
const BATCH = 20;

/** Enqueues a job in the caller's transaction: it exists exactly when the write that needs it commits. */
export async function enqueueJob(
  tx: Queryable,
  kind: string,
  payload: Record<string, unknown>,
  runAt: Date,
): Promise<string> {
  const id = newId();
  await tx.query('INSERT INTO jobs (id, kind, payload, run_at) VALUES ($1, $2, $3, $4)', [
    id,
    kind,
    JSON.stringify(payload),
    runAt,
  ]);
  return id;
}

/** Backoff for a job whose handler threw: 1 s, 2 s, 4 s … capped at 5 min. */
const backoffMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

/** Claims due jobs under a lease and runs each outside any transaction. Returns how many ran. */
export async function runDueJobs(deps: Deps, kinds?: string[]): Promise<number> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<Job>(
    `UPDATE jobs SET locked_until = $2, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM jobs
         WHERE done_at IS NULL AND run_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
           AND ($4::text[] IS NULL OR kind = ANY($4))
         ORDER BY run_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, attempts`,
    [now, new Date(now.getTime() + LEASE_MS), BATCH, kinds ?? null],
  );
  for (const job of rows) {
    const handler = handlers.get(job.kind);
    let outcome: JobOutcome;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      outcome = await handler(deps, job);
    } catch (error) {
      outcome = {
        done: false,
        retryAt: new Date(deps.clock.now().getTime() + backoffMs(job.attempts)),
        reason: error instanceof Error ? error.message : String(error),
      };
    }
    if (outcome.done) {
      await deps.db.query('UPDATE jobs SET done_at = $2, locked_until = NULL WHERE id = $1', [
        job.id,
        deps.clock.now(),
      ]);
    } else {
      await deps.db.query('UPDATE jobs SET run_at = $2, locked_until = NULL, last_error = $3 WHERE id = $1', [
        job.id,
        outcome.retryAt,
        outcome.reason.slice(0, 500),
      ]);
    }
  }
  return rows.length;
}

export const jobsTask: BackgroundTask = { name: 'jobs', intervalMs: 200, run: (deps) => runDueJobs(deps) };
