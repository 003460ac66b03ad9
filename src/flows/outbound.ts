/**
 * The life of an outgoing transfer after its creating transaction commits, for every rail
 * (DESIGN.md, Money-moving flows): PIX payouts and refunds today, crypto sends next.
 *
 *   payment committed with its amount held (available → locked) and a send job
 *     ─▶ worker calls the provider, no transaction open (keyed by the payment id: never pays twice)
 *     ─▶ new transaction: created → processing, poll job enqueued
 *     ─▶ provider settles ─▶ new transaction: locked → the rail's settlement account (+ fee revenue),
 *                            completed; or locked → available, failed (with failure_reason)
 *
 * Every step is idempotent: a settlement only applies to a payment still open, with its row locked,
 * so a job run twice, the reconciliation sweep and a sandbox helper racing each other settle it once.
 */
import type { Tx } from '../db/types.ts';
import { type AccountRef, partyAccount, systemAccount } from '../ledger/accounts.ts';
import type { Currency } from '../ledger/currency.ts';
import { postDistribution } from '../ledger/distribution.ts';
import { moveKind } from '../ledger/ledger.ts';
import type { PaymentKind, PaymentView } from '../modules/payments/schemas.ts';
import {
  createPayment,
  findPayment,
  lockPayment,
  type NewPayment,
  type PaymentDetails,
  type PaymentRow,
  transition,
} from '../modules/payments/service.ts';
import type { Deps } from '../platform/context.ts';
import type { Environment } from '../platform/environment.ts';
import { defineJob, enqueueJob, type JobKind, type JobOutcome } from '../platform/jobs.ts';
import { closeSettledElsewhere, eachApart, notSetAside, SetAsideError } from '../platform/set-aside.ts';
import type { BackgroundTask } from '../platform/tasks.ts';
import type { Rail } from '../providers/registry.ts';

/** What a provider said about a transfer, in the flow's terms. */
export interface TransferOutcome {
  status: 'processing' | 'completed' | 'failed' | 'unknown';
  providerRef?: string;
  /** Fields of the payment a completed transfer sets (pix_tx_id, tx_hash). */
  completed?: PaymentDetails;
  /** Fields set when the provider takes it (tx_hash once broadcast). */
  processing?: PaymentDetails;
  failureReason?: string;
}

/** What a rail tells the flow: how to reach its provider and where its money leaves the books. */
export interface OutboundRail {
  /** The registry's rail whose provider carries these transfers. */
  readonly provider: Rail;
  readonly jobPrefix: string;
  readonly paymentKinds: readonly PaymentKind[];
  send(deps: Deps, row: PaymentRow): Promise<TransferOutcome>;
  status(deps: Deps, row: PaymentRow): Promise<TransferOutcome>;
  /** The service's account of the workspace that the money leaves through. */
  settlementAccount(row: PaymentRow): AccountRef;
  /** Runs in the completing transaction (a refund marks its original refunded when whole). */
  afterCompleted?(tx: Tx, row: PaymentRow, at: Date): Promise<void>;
  pollDelayMs(deps: Deps, environment: Environment): number;
  /** Which transfers' jobs must not run side by side (default: each payment's own, one by one). */
  serialKey?(job: TransferJob): string;
}

export interface TransferJob {
  paymentId: string;
  workspaceId: string;
  environment: Environment;
}

interface ReconcileCandidate {
  id: string;
  workspace_id: string;
  environment: Environment;
  status: string;
}

export interface HeldTransfer extends TransferJob {
  partyId: string;
  currency: Currency;
  /** Amount + fee: what leaves the party's available balance. */
  amount: bigint;
}

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
  recordOutcome(deps: Deps, job: TransferJob, result: TransferOutcome): Promise<void>;
  reconcile(deps: Deps): Promise<number>;
}

const OPEN = new Set(['created', 'processing']);
/** How long after its send job was parked a transfer may be failed: longer than any provider call. */
const PARKED_GRACE_MS = 10 * 60_000;

const scopeOf = (job: TransferJob) => ({ workspaceId: job.workspaceId, environment: job.environment });
const jobOf = (row: { id: string; workspace_id: string; environment: Environment }): TransferJob => ({
  paymentId: row.id,
  workspaceId: row.workspace_id,
  environment: row.environment,
});

export function outboundFlow(rail: OutboundRail): OutboundFlow {
  const kinds = new Set<string>(rail.paymentKinds);
  const reconcileSource = `${rail.jobPrefix}-reconcile`;
  const later = (deps: Deps, ms: number) => new Date(deps.clock.now().getTime() + ms);

  async function send(deps: Deps, job: TransferJob): Promise<JobOutcome> {
    const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
    if (!row || !OPEN.has(row.status) || !kinds.has(row.kind)) return { done: true };
    if (!deps.providers.has(rail.provider, job.environment)) {
      return { done: false, retryAt: later(deps, 60_000), reason: `no ${rail.provider} provider` };
    }
    const result = await rail.send(deps, row);
    if (result.status === 'unknown') throw new Error('provider did not register the transfer');
    await recordOutcome(deps, job, result);
    return { done: true };
  }

  async function poll(deps: Deps, job: TransferJob): Promise<JobOutcome> {
    const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
    if (!row || !OPEN.has(row.status)) return { done: true };
    const result = deps.providers.has(rail.provider, job.environment)
      ? await rail.status(deps, row)
      : undefined;
    if (!result || result.status === 'processing') {
      // A transfer that takes long is asked less often: every poll interval for 10 minutes, then
      // every minute, then every 5 minutes after an hour (it shows in the open-payments check).
      const age = deps.clock.now().getTime() - row.created_at.getTime();
      const delay =
        age < 10 * 60_000 ? rail.pollDelayMs(deps, job.environment) : age < 3600_000 ? 60_000 : 300_000;
      return { done: false, retryAt: later(deps, delay), reason: 'still processing', wait: true };
    }
    if (result.status === 'unknown') return send(deps, job);
    await recordOutcome(deps, job, result);
    return { done: true };
  }

  async function recordOutcome(deps: Deps, job: TransferJob, result: TransferOutcome): Promise<void> {
    await deps.db.transaction(async (tx) => {
      const row = await lockPayment(tx, scopeOf(job), job.paymentId);
      if (!OPEN.has(row.status)) return;
      const at = deps.clock.now();
      const scope = scopeOf(job);
      if (row.status === 'created') {
        const details = { provider_ref: result.providerRef ?? null, ...result.processing };
        await transition(tx, scope, row.id, 'processing', details, { at });
      }
      if (result.status === 'processing') {
        await enqueueJob(tx, pollJob, job, new Date(at.getTime() + rail.pollDelayMs(deps, job.environment)));
      } else if (result.status === 'completed') {
        await settle(tx, row, at, result.completed ?? {});
      } else if (result.status === 'failed') {
        await moveKind(tx, {
          workspaceId: row.workspace_id,
          environment: row.environment,
          partyId: row.party_id,
          currency: row.currency as Currency,
          from: 'locked',
          to: 'available',
          amount: row.amount_minor + row.fee_minor,
          referenceType: 'payment',
          referenceId: row.id,
          at,
        });
        const details = { failure_reason: result.failureReason ?? 'provider_failed' };
        await transition(tx, scope, row.id, 'failed', details, { at });
      }
    });
  }

  async function settle(tx: Tx, row: PaymentRow, at: Date, details: PaymentDetails): Promise<void> {
    const currency = row.currency as Currency;
    await postDistribution(tx, {
      workspaceId: row.workspace_id,
      environment: row.environment,
      referenceType: 'payment',
      referenceId: row.id,
      at,
      from: partyAccount(row.workspace_id, row.environment, row.party_id, currency, 'locked'),
      recipients: [{ account: rail.settlementAccount(row), amount: row.amount_minor }],
      fee: {
        account: systemAccount.feeRevenue(row.workspace_id, row.environment, currency),
        amount: row.fee_minor,
      },
    });
    await transition(tx, scopeOf(jobOf(row)), row.id, 'completed', details, { at });
    await rail.afterCompleted?.(tx, row, at);
  }

  /**
   * Re-asks the provider about transfers that no job is moving any more: left in processing (a lost
   * poll, a restart), or still created after their send job was parked (it failed every attempt).
   * A transfer the provider does not know is sent again when it was processing (the provider is
   * idempotent on the payment id), and failed, with its money returned, only when it never left
   * `created` and its job was parked long enough ago that no attempt can still be in flight.
   * A transfer whose reconciliation throws is set aside (platform/set-aside.ts) and the others are
   * still looked at; the sweep finds it again once its retry is due.
   */
  async function reconcile(deps: Deps): Promise<number> {
    const now = deps.clock.now().getTime();
    const { rows } = await deps.db.query<ReconcileCandidate>(
      `SELECT p.id, p.workspace_id, p.environment, p.status FROM payments p
        WHERE p.kind = ANY($3) AND p.updated_at < $1
          AND (p.status = 'processing'
               OR (p.status = 'created'
                   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.subject_id = p.id::text AND j.done_at IS NULL)
                   AND EXISTS (SELECT 1 FROM jobs j WHERE j.subject_id = p.id::text AND j.failed_at < $2)))
          AND ${notSetAside(reconcileSource, 'p.id::text', '$4')}
        ORDER BY p.updated_at LIMIT 100`,
      [new Date(now - 5 * 60_000), new Date(now - PARKED_GRACE_MS), [...kinds], new Date(now)],
    );
    const failures = await eachApart(
      deps.db,
      reconcileSource,
      rows,
      (c) => ({ key: c.id, environment: c.environment, workspaceId: c.workspace_id, payload: c }),
      (candidate) => reconcileOne(deps, candidate),
      () => deps.clock.now(),
    );
    await closeSettledElsewhere(
      deps.db,
      reconcileSource,
      `EXISTS (SELECT 1 FROM payments p WHERE p.id = s.item_key::uuid AND p.status IN ('created', 'processing'))`,
      deps.clock.now(),
    );
    if (failures.length > 0) throw new SetAsideError(reconcileSource, failures);
    return 0;
  }

  async function reconcileOne(deps: Deps, candidate: ReconcileCandidate): Promise<void> {
    const job = jobOf(candidate);
    if (!deps.providers.has(rail.provider, candidate.environment)) return;
    const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
    if (!row) return;
    const result = await rail.status(deps, row);
    if (result.status === 'unknown') {
      if (candidate.status === 'processing') await send(deps, job);
      else await recordOutcome(deps, job, { status: 'failed', failureReason: 'provider_unreachable' });
      return;
    }
    // Still settling at the provider: the next round asks again (no second poll job is queued).
    if (result.status === 'processing' && candidate.status === 'processing') return;
    await recordOutcome(deps, job, result);
  }

  /**
   * Reserves a transfer's amount (available → locked) and enqueues its send job, in the transaction
   * that creates the payment. The provider check comes after the balance (API.md order).
   */
  async function hold(tx: Tx, deps: Deps, transfer: HeldTransfer, at: Date): Promise<void> {
    const job = jobOf({
      id: transfer.paymentId,
      workspace_id: transfer.workspaceId,
      environment: transfer.environment,
    });
    await enqueueJob(tx, sendJob, job, at);
    // The debit comes last: from it to COMMIT the party's balance row is locked, and every other
    // transfer of that party waits on it, so nothing that could run before it runs after it.
    await moveKind(tx, {
      workspaceId: transfer.workspaceId,
      environment: transfer.environment,
      partyId: transfer.partyId,
      currency: transfer.currency,
      from: 'available',
      to: 'locked',
      amount: transfer.amount,
      referenceType: 'payment',
      referenceId: transfer.paymentId,
      at,
    });
    deps.providers.get(rail.provider, transfer.environment);
  }

  const subject = (job: TransferJob) => job.paymentId;
  const serialKey = rail.serialKey ?? subject;
  const sendJob = defineJob<TransferJob>(`${rail.jobPrefix}.send`, { subject, serialKey, run: send });
  const pollJob = defineJob<TransferJob>(`${rail.jobPrefix}.poll`, { subject, serialKey, run: poll });
  return {
    sendJob,
    pollJob,
    jobs: [sendJob, pollJob],
    tasks: [{ name: reconcileSource, intervalMs: 60_000, run: reconcile }],
    start: async (tx, deps, payment, at) => {
      // The payment row and the hold travel together (pipelined: neither reads what the other writes).
      // Both are waited for, failed or not, so no statement of either is sent after the caller gave up.
      const [created, held] = await Promise.allSettled([
        createPayment(tx, payment, { at }),
        hold(
          tx,
          deps,
          {
            paymentId: payment.id,
            workspaceId: payment.workspace_id,
            environment: payment.environment,
            partyId: payment.party_id,
            currency: payment.currency,
            amount: payment.amount_minor + (payment.fee_minor ?? 0n),
          },
          at,
        ),
      ]);
      if (created.status === 'rejected') throw created.reason;
      if (held.status === 'rejected') throw held.reason;
      return created.value;
    },
    send,
    poll,
    recordOutcome,
    reconcile,
  };
}
