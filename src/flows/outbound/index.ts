/**
 * The life of an outgoing transfer after its creating transaction commits, for every rail
 * (DESIGN.md, Money-moving flows): PIX payouts and refunds, crypto sends. One step a file:
 *
 *   start      payment committed with its amount held (available → locked) and a send job
 *   run        the send job calls the provider, no transaction open (keyed by the payment id: never
 *              pays twice); the poll job asks how it is doing
 *   settle     new transaction: created → processing, poll job enqueued; once the provider settles,
 *              locked → the rail's settlement account (+ fee revenue), completed; or locked →
 *              available, failed (with failure_reason)
 *   reconcile  the sweep that picks up transfers no job is moving any more
 *
 * Every step is idempotent: a settlement only applies to a payment still open, with its row locked,
 * so a job run twice, the reconciliation sweep and a sandbox helper racing each other settle it once.
 */
import type { Tx } from '../../db/types.ts';
import type { PaymentView } from '../../modules/payments/schemas.ts';
import type { NewPayment } from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import { defineJob, type JobKind, type JobOutcome } from '../../platform/jobs.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import type { Outbound, OutboundRail, TransferJob, TransferOutcome } from './rail.ts';
import { reconcile, reconcileSource } from './reconcile.ts';
import { poll, send } from './run.ts';
import { recordOutcome } from './settle.ts';
import { start } from './start.ts';

export type { OutboundRail, TransferJob, TransferOutcome } from './rail.ts';
export type { HeldTransfer } from './start.ts';

export interface OutboundFlow {
  readonly sendJob: JobKind<TransferJob>;
  readonly pollJob: JobKind<TransferJob>;
  readonly jobs: readonly JobKind<TransferJob>[];
  readonly tasks: readonly BackgroundTask[];
  /**
   * Creates an outgoing payment and holds its amount + fee for the provider, in the caller's
   * transaction: what a payout, refund or send does once its checks pass.
   */
  start(tx: Tx, deps: Deps, payment: NewPayment & { id: string }, at: Date): Promise<PaymentView>;
  send(deps: Deps, job: TransferJob): Promise<JobOutcome>;
  poll(deps: Deps, job: TransferJob): Promise<JobOutcome>;
  /** Records a provider's answer (what the send and poll jobs hear), in a transaction of its own. */
  recordOutcome(deps: Deps, job: TransferJob, result: TransferOutcome): Promise<void>;
  /** One round of the reconciliation sweep; returns how many transfers it moved. */
  reconcile(deps: Deps): Promise<number>;
}

/** A rail's outbound flow: its typed send and poll jobs, its reconcile task and its steps. */
export function outboundFlow(rail: OutboundRail): OutboundFlow {
  const subject = (job: TransferJob) => job.paymentId;
  const serialKey = rail.serialKey ?? subject;
  const flow: Outbound = {
    rail,
    kinds: new Set(rail.paymentKinds),
    sendJob: defineJob<TransferJob>(`${rail.jobPrefix}.send`, {
      subject,
      serialKey,
      run: (deps, job) => send(flow, deps, job),
    }),
    pollJob: defineJob<TransferJob>(`${rail.jobPrefix}.poll`, {
      subject,
      serialKey,
      run: (deps, job) => poll(flow, deps, job),
    }),
  };
  const runReconcile = (deps: Deps) => reconcile(flow, deps);
  return {
    sendJob: flow.sendJob,
    pollJob: flow.pollJob,
    jobs: [flow.sendJob, flow.pollJob],
    tasks: [{ name: reconcileSource(rail), intervalMs: 60_000, run: runReconcile }],
    start: (tx, deps, payment, at) => start(flow, tx, deps, payment, at),
    send: (deps, job) => send(flow, deps, job),
    poll: (deps, job) => poll(flow, deps, job),
    recordOutcome: async (deps, job, result) => {
      await recordOutcome(flow, deps, job, result);
    },
    reconcile: runReconcile,
  };
}
