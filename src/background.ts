import { PIX_TASKS, registerPixJobs } from './modules/pix/lifecycle.ts';
import { webhookDispatchTask } from './modules/webhooks/dispatcher.ts';
import { sweepIdempotencyKeys } from './platform/idempotency.ts';
import { jobsTask } from './platform/jobs.ts';
import type { BackgroundTask } from './platform/tasks.ts';

registerPixJobs();

/** Every background task of the service; modules add theirs here. */
export const BACKGROUND_TASKS: BackgroundTask[] = [
  jobsTask,
  { name: 'idempotency-sweep', intervalMs: 3600_000, run: (deps) => sweepIdempotencyKeys(deps) },
  webhookDispatchTask,
  ...PIX_TASKS,
];
