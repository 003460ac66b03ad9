import { webhookDispatchTask } from './modules/webhooks/dispatcher.ts';
import { sweepIdempotencyKeys } from './platform/idempotency.ts';
import type { BackgroundTask } from './platform/tasks.ts';

/** Every background task of the service; modules add theirs here. */
export const BACKGROUND_TASKS: BackgroundTask[] = [
  { name: 'idempotency-sweep', intervalMs: 3600_000, run: (deps) => sweepIdempotencyKeys(deps) },
  webhookDispatchTask,
];
