import { MODULES } from './modules/index.ts';
import type { Deps } from './platform/context.ts';
import { sweepIdempotencyKeys } from './platform/idempotency.ts';
import { jobRegistry, jobsTask, runDueJobs } from './platform/jobs.ts';
import type { BackgroundTask } from './platform/tasks.ts';

/** Every job kind of the service, from the modules' manifests. */
export const JOB_KINDS = jobRegistry(MODULES.flatMap((module) => module.jobs ?? []));

/** Every background task the worker runs: the job runner, the platform's sweeps, the modules' tasks. */
export const BACKGROUND_TASKS: readonly BackgroundTask[] = [
  jobsTask(JOB_KINDS),
  { name: 'idempotency-sweep', intervalMs: 3600_000, run: (deps) => sweepIdempotencyKeys(deps) },
  ...MODULES.flatMap((module) => module.tasks ?? []),
];

/** Runs the due jobs of the service's kinds once (tests and the bench drive the worker this way). */
export const runJobs = (deps: Deps, kinds?: string[], options?: { handlerTimeoutMs?: number }) =>
  runDueJobs(deps, JOB_KINDS, kinds, options);
