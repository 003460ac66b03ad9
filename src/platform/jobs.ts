import type { Queryable, Tx } from '../db/types.ts';
import type { Deps } from './context.ts';
import { newId } from './ids.ts';
import type { BackgroundTask } from './tasks.ts';

/** What a handler says about a job it ran: done, or run again later. */
export type JobOutcome =
  | { done: true }
  /** `wait`: nothing went wrong, it is just not time yet (a transfer still settling): no attempt is spent. */
  | { done: false; retryAt: Date; reason: string; wait?: boolean };

/**
 * A kind of job, defined once with its payload type: `enqueue` only takes that payload, and the
 * handler receives it typed. `subject` names the record the job works on (stored in jobs.subject_id).
 */
export interface JobKind<P> {
  readonly kind: string;
  subject(payload: P): string | null;
  run(deps: Deps, payload: P): Promise<JobOutcome>;
}

export function defineJob<P extends object>(
  kind: string,
  spec: { subject?: (payload: P) => string; run: (deps: Deps, payload: P) => Promise<JobOutcome> },
): JobKind<P> {
  return { kind, subject: spec.subject ?? (() => null), run: spec.run };
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of every payload type
type AnyJobKind = JobKind<any>;
/** The job kinds a worker runs, by kind: built from the modules' manifests, never a global. */
export type JobRegistry = ReadonlyMap<string, AnyJobKind>;

export function jobRegistry(kinds: readonly AnyJobKind[]): JobRegistry {
  const registry = new Map<string, AnyJobKind>();
  for (const job of kinds) {
    if (registry.has(job.kind)) throw new Error(`job kind ${job.kind} is defined twice`);
    registry.set(job.kind, job);
  }
  return registry;
}

const LEASE_MS = 60_000;
/**
 * A claim's jobs run side by side, those of one subject one after another; a job whose turn comes
 * too late to finish within the lease goes back unrun, so no claimed job outlives its lease.
 */
const BATCH = 16;
const HANDLER_TIMEOUT_MS = 10_000;
/** With the backoff capped at 5 min, 25 attempts span about 1 h 40 min before a job is parked. */
export const MAX_JOB_ATTEMPTS = 25;

/** Enqueues a job in the caller's transaction: it exists exactly when the write that needs it commits. */
export async function enqueueJob<P>(
  tx: Queryable,
  job: JobKind<P>,
  payload: P,
  runAt: Date,
): Promise<string> {
  const id = newId();
  const sql = 'INSERT INTO jobs (id, kind, payload, run_at, subject_id) VALUES ($1, $2, $3, $4, $5)';
  const params = [id, job.kind, JSON.stringify(payload), runAt, job.subject(payload)];
  // In a transaction the insert is pipelined: nothing reads its result, and it commits with the rest.
  if ('later' in tx) (tx as Tx).later(sql, params);
  else await tx.query(sql, params);
  return id;
}

/** Backoff for a job whose handler threw: 1 s, 2 s, 4 s … capped at 5 min. */
const backoffMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

interface ClaimedJob {
  id: string;
  kind: string;
  payload: object;
  attempts: number;
  run_at: Date;
  subject_id: string | null;
}

/** One claim: its jobs share a lease token and a lease end. */
interface Claim {
  token: string;
  leaseEnds: number;
  handlerTimeoutMs: number;
}

class HandlerTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeout(`handler took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Claims due jobs under a lease and runs each outside any transaction. Returns how many were claimed.
 * Jobs of different subjects run concurrently; a subject's jobs run in order of run_at. Outcomes are
 * written only while this claim's lease token still holds the job, so a worker whose lease ran out
 * (and whose job another worker took over) cannot overwrite the newer outcome.
 */
export async function runDueJobs(
  deps: Deps,
  registry: JobRegistry,
  kinds?: string[],
  options: { handlerTimeoutMs?: number } = {},
): Promise<number> {
  const now = deps.clock.now();
  const claim: Claim = {
    token: newId(),
    leaseEnds: now.getTime() + LEASE_MS,
    handlerTimeoutMs: options.handlerTimeoutMs ?? HANDLER_TIMEOUT_MS,
  };
  const { rows } = await deps.db.query<ClaimedJob>(
    `UPDATE jobs SET locked_until = $2, attempts = attempts + 1, lease_token = $5
      WHERE id IN (
        SELECT id FROM jobs
         WHERE done_at IS NULL AND run_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
           AND ($4::text[] IS NULL OR kind = ANY($4))
         ORDER BY run_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, attempts, run_at, subject_id`,
    [now, new Date(claim.leaseEnds), BATCH, kinds ?? null, claim.token],
  );
  const bySubject = new Map<string, ClaimedJob[]>();
  for (const job of rows.sort((a, b) => a.run_at.getTime() - b.run_at.getTime())) {
    const key = job.subject_id ?? job.id;
    bySubject.set(key, [...(bySubject.get(key) ?? []), job]);
  }
  const settled = await Promise.allSettled(
    [...bySubject.values()].map(async (jobs) => {
      for (const job of jobs) await runClaimedJob(deps, registry, claim, job);
    }),
  );
  // Every group has ended before the round does, so the task never overlaps itself.
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return rows.length;
}

async function runClaimedJob(deps: Deps, registry: JobRegistry, claim: Claim, job: ClaimedJob) {
  const { token } = claim;
  if (deps.clock.now().getTime() + claim.handlerTimeoutMs > claim.leaseEnds) {
    await deps.db.query(
      'UPDATE jobs SET locked_until = NULL, attempts = attempts - 1 WHERE id = $1 AND lease_token = $2',
      [job.id, token],
    );
    return;
  }
  const handler = registry.get(job.kind);
  let outcome: JobOutcome;
  let timedOut = false;
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    outcome = await withTimeout(handler.run(deps, job.payload), claim.handlerTimeoutMs);
  } catch (error) {
    timedOut = error instanceof HandlerTimeout;
    outcome = {
      done: false,
      retryAt: new Date(deps.clock.now().getTime() + backoffMs(job.attempts)),
      reason: error instanceof Error ? error.message : String(error),
    };
  }
  const at = deps.clock.now();
  if (outcome.done) {
    await deps.db.query(
      'UPDATE jobs SET done_at = $2, locked_until = NULL WHERE id = $1 AND lease_token = $3',
      [job.id, at, token],
    );
  } else if (outcome.wait) {
    await deps.db.query(
      `UPDATE jobs SET run_at = $2, locked_until = NULL, attempts = attempts - 1
        WHERE id = $1 AND lease_token = $3`,
      [job.id, outcome.retryAt, token],
    );
  } else if (job.attempts >= MAX_JOB_ATTEMPTS && !timedOut) {
    // A timed-out handler may still be running (its provider call in flight), so a timeout never
    // parks a job: only an attempt that really ended in failure counts toward parking.
    await deps.db.query(
      `UPDATE jobs SET done_at = $2, failed_at = $2, locked_until = NULL, last_error = $3
        WHERE id = $1 AND lease_token = $4`,
      [job.id, at, outcome.reason.slice(0, 500), token],
    );
  } else {
    await deps.db.query(
      'UPDATE jobs SET run_at = $2, locked_until = NULL, last_error = $3 WHERE id = $1 AND lease_token = $4',
      [job.id, outcome.retryAt, outcome.reason.slice(0, 500), token],
    );
  }
}

/** The worker task that runs the jobs of a registry. */
export const jobsTask = (registry: JobRegistry): BackgroundTask => ({
  name: 'jobs',
  intervalMs: 200,
  run: (deps) => runDueJobs(deps, registry),
});
