/**
 * The jobs that carry a transfer to its provider, outside any transaction: `send` asks the provider
 * to pay (keyed by the payment id, so it never pays twice), `poll` asks how a transfer in processing
 * is doing; what they hear is recorded by settle.ts.
 */
import { findPayment } from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import type { JobOutcome } from '../../platform/jobs.ts';
import { later, OPEN, type Outbound, scopeOf, type TransferJob } from './rail.ts';
import { recordOutcome } from './settle.ts';

/**
 * A job is enqueued in its payment's transaction, so its payment exists, but the job may be claimed
 * before the payment can be read: on Citus the coordinator commits its own tables (the jobs) before
 * the workers commit theirs (the payment) in the second phase of the two-phase commit. Finishing the
 * job then would leave the payment open with nothing to move it; it asks again in a second (a job
 * whose payment never shows is parked after its attempts, and the sweep takes it from there).
 */
const notVisibleYet = (deps: Deps): JobOutcome => ({
  done: false,
  retryAt: later(deps, 1000),
  reason: 'payment not visible yet',
});

/** The send job: pays a transfer still open, or tries again in a minute while its rail has no provider. */
export async function send(flow: Outbound, deps: Deps, job: TransferJob): Promise<JobOutcome> {
  return (await sendTransfer(flow, deps, job)).outcome;
}

/** The send job's work, saying also whether the payment moved (what the reconciliation sweep counts). */
export async function sendTransfer(
  flow: Outbound,
  deps: Deps,
  job: TransferJob,
): Promise<{ outcome: JobOutcome; moved: boolean }> {
  const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
  if (!row) return { outcome: notVisibleYet(deps), moved: false };
  if (!OPEN.has(row.status) || !flow.kinds.has(row.kind)) return { outcome: { done: true }, moved: false };
  if (!deps.providers.has(flow.rail.provider, job.environment)) {
    const retryAt = later(deps, 60_000);
    return { outcome: { done: false, retryAt, reason: `no ${flow.rail.provider} provider` }, moved: false };
  }
  const result = await flow.rail.send(deps, row);
  if (result.status === 'unknown') throw new Error('provider did not register the transfer');
  const moved = await recordOutcome(flow, deps, job, result);
  return { outcome: { done: true }, moved };
}

/** The poll job: records a settled transfer, waits on one still processing, sends one the provider lost. */
export async function poll(flow: Outbound, deps: Deps, job: TransferJob): Promise<JobOutcome> {
  const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
  if (!row) return notVisibleYet(deps);
  if (!OPEN.has(row.status)) return { done: true };
  const result = deps.providers.has(flow.rail.provider, job.environment)
    ? await flow.rail.status(deps, row)
    : undefined;
  if (!result || result.status === 'processing') {
    // A transfer that takes long is asked less often: every poll interval for 10 minutes, then
    // every minute, then every 5 minutes after an hour (it shows in the open-payments check).
    const age = deps.clock.now().getTime() - row.created_at.getTime();
    const delay =
      age < 10 * 60_000 ? flow.rail.pollDelayMs(deps, job.environment) : age < 3600_000 ? 60_000 : 300_000;
    return { done: false, retryAt: later(deps, delay), reason: 'still processing', wait: true };
  }
  if (result.status === 'unknown') return send(flow, deps, job);
  await recordOutcome(flow, deps, job, result);
  return { done: true };
}
