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
 * handler receives it typed. `subject` names the record the job works on (stored in jobs.subject_id);
 * `serialKey` says which jobs of a claim must run one after another (by default, one subject's).
 */
export interface JobKind<P> {
  readonly kind: string;
  subject(payload: P): string | null;
  serialKey(payload: P): string | null;
  run(deps: Deps, payload: P): Promise<JobOutcome>;
}

export function defineJob<P extends object>(
  kind: string,
  spec: {
    subject?: (payload: P) => string;
    serialKey?: (payload: P) => string;
    run: (deps: Deps, payload: P) => Promise<JobOutcome>;
  },
): JobKind<P> {
  const subject = spec.subject ?? (() => null);
  return { kind, subject, serialKey: spec.serialKey ?? subject, run: spec.run };
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
 * A claim's jobs run side by side (at most JOB_CONCURRENCY at once, inside the pool), those of one
 * serial key one after another; a job whose turn comes too late to finish, and write its outcome,
 * within the lease goes back unrun, so no claimed job outlives its lease.
 */
const HANDLER_TIMEOUT_MS = 10_000;
const OUTCOME_MARGIN_MS = 5_000;
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
  // In a transaction the insert is held to its end and commits with the rest: the job's row is not
  // there for the transaction's own statements to read. In an interleaved group-commit batch the
  // jobs of its requests go joined (src/db/joined-writes.ts).
  if ('hold' in tx) (tx as Tx).hold({ text: sql, params, local: true });
  else await tx.query(sql, params);
  return id;
}

/**
 * Of `subjects`, those their jobs gave up on: none of the subject's jobs is still to run, and one
 * was parked (it failed every attempt) before `before`. A sweep asks it of its candidates, apart
 * from its own query: on Citus `jobs` stays on the coordinator and cannot meet a distributed table
 * in one statement.
 */
export async function parkedSubjects(
  q: Queryable,
  subjects: readonly string[],
  before: Date,
): Promise<string[]> {
  if (subjects.length === 0) return [];
  const { rows } = await q.query<{ subject_id: string }>(
    `SELECT subject_id FROM jobs WHERE subject_id = ANY($1::text[])
      GROUP BY subject_id HAVING bool_and(done_at IS NOT NULL) AND bool_or(failed_at < $2)`,
    [[...subjects], before],
  );
  return rows.map((row) => row.subject_id);
}

/** Backoff for a job whose handler threw: 1 s, 2 s, 4 s … capped at 5 min. */
const backoffMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

interface ClaimedJob {
  id: string;
  kind: string;
  payload: object;
  attempts: number;
  run_at: Date;
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
 * Jobs of different serial keys run concurrently; one key's jobs run in order of run_at. Outcomes are
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
  const parallel = deps.config.jobConcurrency;
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
      RETURNING id, kind, payload, attempts, run_at`,
    [now, new Date(claim.leaseEnds), 2 * parallel, kinds ?? null, claim.token],
  );
  const groups = new Map<string, ClaimedJob[]>();
  rows.sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || (a.id < b.id ? -1 : 1));
  for (const job of rows) {
    const key = registry.get(job.kind)?.serialKey(job.payload) ?? job.id;
    groups.set(key, [...(groups.get(key) ?? []), job]);
  }
  const queue = [...groups.values()];
  const errors: unknown[] = [];
  const runner = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      await runGroup(deps, registry, claim, group).catch((error) => errors.push(error));
    }
  };
  // Every group has ended before the round does, so the task never overlaps itself.
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, runner));
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} job groups failed`);
  return rows.length;
}

/**
 * Runs one serial key's jobs in order. After a job that timed out (its handler may still be
 * running), one that came too late for the lease, or an error, the rest go back unrun.
 */
async function runGroup(deps: Deps, registry: JobRegistry, claim: Claim, jobs: ClaimedJob[]) {
  for (const [index, job] of jobs.entries()) {
    if (deps.clock.now().getTime() + claim.handlerTimeoutMs + OUTCOME_MARGIN_MS > claim.leaseEnds) {
      return handBack(deps, claim, jobs.slice(index));
    }
    let ran: 'next' | 'stop';
    try {
      ran = await runClaimedJob(deps, registry, claim, job);
    } catch (error) {
      await handBack(deps, claim, jobs.slice(index + 1)).catch(() => {});
      throw error;
    }
    if (ran === 'stop') return handBack(deps, claim, jobs.slice(index + 1));
  }
}

/** Releases claimed jobs without running them, giving back the attempt the claim counted. */
async function handBack(deps: Deps, claim: Claim, jobs: ClaimedJob[]) {
  if (jobs.length === 0) return;
  await deps.db.query(
    'UPDATE jobs SET locked_until = NULL, attempts = attempts - 1 WHERE id = ANY($1) AND lease_token = $2',
    [jobs.map((job) => job.id), claim.token],
  );
}

async function runClaimedJob(
  deps: Deps,
  registry: JobRegistry,
  claim: Claim,
  job: ClaimedJob,
): Promise<'next' | 'stop'> {
  const { token } = claim;
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
  return timedOut ? 'stop' : 'next';
}

/** The worker task that runs the jobs of a registry. */
export const jobsTask = (registry: JobRegistry): BackgroundTask => ({
  name: 'jobs',
  intervalMs: 200,
  run: (deps) => runDueJobs(deps, registry),
});
