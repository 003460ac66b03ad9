/**
 * The life of a PIX payment after its creating transaction commits (DESIGN.md, Money-moving flows):
 *
 *   payout/refund committed with a SEND_JOB ─▶ worker calls the provider (no transaction open)
 *     ─▶ new transaction: created → processing, POLL_JOB enqueued
 *     ─▶ provider settles ─▶ new transaction: locked → PIX settlement (+ fee revenue), completed
 *                                          or locked → available, failed (with failure_reason)
 *
 * Every step is idempotent: the provider is keyed by the payment id, and a settlement only applies
 * to a payment still in created/processing (its row is locked first), so a job run twice, a sweep
 * and a sandbox helper racing each other settle a payment once.
 */
import type { Tx } from '../../db/types.ts';
import { type AccountRef, partyAccount, systemAccount } from '../../ledger/accounts.ts';
import type { Currency } from '../../ledger/currency.ts';
import { moveKind, type PostingInput, postJournal } from '../../ledger/ledger.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueJob, type Job, type JobOutcome, registerJobHandler } from '../../platform/jobs.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import type { ProviderTransfer } from '../../providers/pix/provider.ts';
import { SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { findPaymentRow, type PaymentRow, type PaymentScope } from '../payments/repo.ts';
import { lockPayment, transition } from '../payments/service.ts';
import type { PixKeyType } from './keys.ts';

export const SEND_JOB = 'pix.send';
export const POLL_JOB = 'pix.poll';

interface TransferJob {
  paymentId: string;
  workspaceId: string;
  environment: Environment;
}

const scopeOf = (job: TransferJob): PaymentScope => ({
  workspaceId: job.workspaceId,
  environment: job.environment,
});
const OPEN = new Set(['created', 'processing']);
const isOutgoing = (row: PaymentRow) => row.kind === 'pix_cash_out' || row.kind === 'pix_refund';

function pollDelayMs(deps: Deps, environment: Environment): number {
  return environment === 'sandbox' ? Math.max(50, deps.config.sandboxSettleMs) : 2000;
}

/** Hands a committed payout or refund to the provider, then records what it said. */
export async function sendToProvider(deps: Deps, job: TransferJob): Promise<JobOutcome> {
  const row = await findPaymentRow(deps.db, scopeOf(job), job.paymentId);
  if (!row || !OPEN.has(row.status) || !isOutgoing(row)) return { done: true };
  const provider = deps.providers.pix(job.environment);
  if (!provider) {
    return { done: false, retryAt: new Date(deps.clock.now().getTime() + 60_000), reason: 'no PIX provider' };
  }
  let result: ProviderTransfer;
  if (row.kind === 'pix_refund') {
    const original = row.related_payment_id
      ? await findPaymentRow(deps.db, scopeOf(job), row.related_payment_id)
      : undefined;
    result = await provider.sendRefund({
      paymentId: row.id,
      originalEndToEndId: original?.pix_tx_id ?? null,
      amountMinor: row.amount_minor,
    });
  } else {
    const counterparty = (row.counterparty ?? {}) as { pix_key_type?: PixKeyType };
    result = await provider.sendPayout({
      paymentId: row.id,
      amountMinor: row.amount_minor,
      pixKey: row.pix_key!,
      pixKeyType: counterparty.pix_key_type ?? 'evp',
      description: row.description,
    });
  }
  if (result.status === 'unknown') throw new Error('provider did not register the transfer');
  await recordOutcome(deps, job, result);
  return { done: true };
}

/** Asks the provider where a transfer stands; settles it once it is final. */
export async function pollProvider(deps: Deps, job: TransferJob): Promise<JobOutcome> {
  const row = await findPaymentRow(deps.db, scopeOf(job), job.paymentId);
  if (!row || !OPEN.has(row.status)) return { done: true };
  const provider = deps.providers.pix(job.environment);
  const result = provider ? await provider.getStatus(job.paymentId) : undefined;
  if (!result || result.status === 'processing') {
    // A transfer that takes long is asked less often: every poll interval for 10 minutes, then
    // every minute, then every 5 minutes after an hour (it shows in the open-payments check).
    const age = deps.clock.now().getTime() - row.created_at.getTime();
    const delay = age < 10 * 60_000 ? pollDelayMs(deps, job.environment) : age < 3600_000 ? 60_000 : 300_000;
    return {
      done: false,
      retryAt: new Date(deps.clock.now().getTime() + delay),
      reason: 'still processing',
      wait: true,
    };
  }
  if (result.status === 'unknown') return sendToProvider(deps, job);
  await recordOutcome(deps, job, result);
  return { done: true };
}

/** Records a provider's answer in one transaction: processing (and a poll), or the final settlement. */
export async function recordOutcome(deps: Deps, job: TransferJob, result: ProviderTransfer): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await lockPayment(tx, scopeOf(job), job.paymentId);
    if (!OPEN.has(row.status)) return;
    const at = deps.clock.now();
    if (row.status === 'created') {
      await transition(
        tx,
        scopeOf(job),
        row.id,
        'processing',
        { provider_ref: result.providerRef ?? null },
        { at },
      );
    }
    if (result.status === 'processing') {
      await enqueueJob(tx, POLL_JOB, { ...job }, new Date(at.getTime() + pollDelayMs(deps, job.environment)));
    } else if (result.status === 'completed') {
      await settleOutgoing(tx, row, at, result.endToEndId ?? null);
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
      await transition(
        tx,
        scopeOf(job),
        row.id,
        'failed',
        { failure_reason: result.failureReason ?? 'provider_failed' },
        { at },
      );
    }
  });
}

/** Debits `from` for net + fee, credits `to` the net and fee revenue the fee: one journal for the payment. */
async function postWithFee(tx: Tx, row: PaymentRow, at: Date, from: AccountRef, to: AccountRef, net: bigint) {
  const currency = row.currency as Currency;
  const postings: PostingInput[] = [
    { account: from, direction: 'debit', amount: net + row.fee_minor },
    { account: to, direction: 'credit', amount: net },
  ];
  if (row.fee_minor > 0n) {
    postings.push({
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, currency),
      direction: 'credit',
      amount: row.fee_minor,
    });
  }
  await postJournal(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    referenceType: 'payment',
    referenceId: row.id,
    postings,
    at,
  });
}

async function settleOutgoing(tx: Tx, row: PaymentRow, at: Date, e2e: string | null): Promise<void> {
  const locked = partyAccount(
    row.workspace_id,
    row.environment,
    row.party_id,
    row.currency as Currency,
    'locked',
  );
  await postWithFee(
    tx,
    row,
    at,
    locked,
    systemAccount.pixSettlement(row.workspace_id, row.environment),
    row.amount_minor,
  );
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  await transition(tx, scope, row.id, 'completed', { pix_tx_id: e2e }, { at });
  if (row.kind === 'pix_refund' && row.related_payment_id) {
    await markRefundedWhenWhole(tx, scope, row.related_payment_id, at);
  }
}

/** The original cash-in becomes `refunded` once completed refunds add up to all of it. */
async function markRefundedWhenWhole(
  tx: Tx,
  scope: PaymentScope,
  originalId: string,
  at: Date,
): Promise<void> {
  const { rows } = await tx.query<{ refunded: bigint; amount: bigint; status: string }>(
    `SELECT p.amount_minor AS amount, p.status,
            (SELECT coalesce(sum(r.amount_minor), 0) FROM payments r
              WHERE r.related_payment_id = p.id AND r.kind = 'pix_refund' AND r.status = 'completed')::bigint AS refunded
       FROM payments p WHERE p.id = $1 FOR UPDATE`,
    [originalId],
  );
  const original = rows[0];
  if (original && original.status === 'completed' && original.refunded >= original.amount) {
    await transition(tx, scope, originalId, 'refunded', {}, { at });
  }
}

/** A buyer pays a cash-in charge: net amount to the party, fee to fee revenue, completed. */
export async function payCharge(tx: Tx, deps: Deps, scope: PaymentScope, id: string) {
  const row = await lockPayment(tx, scope, id);
  if (row.kind !== 'pix_cash_in')
    throw new AppError('invalid_state', 'Only a PIX charge (pix_cash_in) can be paid.');
  const at = deps.clock.now();
  if (row.status !== 'created') throw new AppError('invalid_state', `A ${row.status} charge cannot be paid.`);
  if (row.expires_at && row.expires_at <= at) throw new AppError('invalid_state', 'The charge has expired.');
  const available = partyAccount(
    row.workspace_id,
    row.environment,
    row.party_id,
    row.currency as Currency,
    'available',
  );
  await postWithFee(
    tx,
    row,
    at,
    systemAccount.pixSettlement(row.workspace_id, row.environment),
    available,
    row.amount_minor - row.fee_minor,
  );
  return transition(tx, scope, row.id, 'completed', { pix_tx_id: endToEndId(SANDBOX_ISPB, at) }, { at });
}

/** Charges left unpaid past expires_at become expired. */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const { rows } = await deps.db.query<{ id: string; workspace_id: string; environment: Environment }>(
    `SELECT id, workspace_id, environment FROM payments
      WHERE status = 'created' AND kind = 'pix_cash_in' AND expires_at <= $1 ORDER BY expires_at LIMIT 100`,
    [deps.clock.now()],
  );
  for (const row of rows) {
    await deps.db.transaction(async (tx) => {
      const scope = { workspaceId: row.workspace_id, environment: row.environment };
      const current = await lockPayment(tx, scope, row.id);
      if (current.status === 'created')
        await transition(tx, scope, row.id, 'expired', {}, { at: deps.clock.now() });
    });
  }
  return rows.length;
}

/** How long after its send job was parked a payout may be failed: longer than any provider call. */
const PARKED_GRACE_MS = 10 * 60_000;

/**
 * Re-asks the provider about payouts and refunds that no job is moving any more: left in processing
 * (a lost poll, a restart), or still created after their send job was parked (it failed every
 * attempt). The provider's answer is recorded as the poll would; a transfer it does not know is
 * sent again when it was processing (the provider is idempotent on the payment id), and failed,
 * with its money returned, only when it never left `created` and its job was parked long enough
 * ago that no attempt can still be in flight.
 */
export async function reconcileProcessing(deps: Deps): Promise<number> {
  const now = deps.clock.now().getTime();
  const { rows } = await deps.db.query<{
    id: string;
    workspace_id: string;
    environment: Environment;
    status: string;
  }>(
    `SELECT p.id, p.workspace_id, p.environment, p.status FROM payments p
      WHERE p.kind IN ('pix_cash_out', 'pix_refund') AND p.updated_at < $1
        AND (p.status = 'processing'
             OR (p.status = 'created'
                 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.done_at IS NULL AND j.payload->>'paymentId' = p.id::text)
                 AND EXISTS (SELECT 1 FROM jobs j WHERE j.failed_at < $2 AND j.payload->>'paymentId' = p.id::text)))
      ORDER BY p.updated_at LIMIT 100`,
    [new Date(now - 5 * 60_000), new Date(now - PARKED_GRACE_MS)],
  );
  for (const row of rows) {
    const job = { paymentId: row.id, workspaceId: row.workspace_id, environment: row.environment };
    const result = await deps.providers.pix(row.environment)?.getStatus(row.id);
    if (!result) continue;
    if (result.status === 'unknown') {
      if (row.status === 'processing') await sendToProvider(deps, job);
      else await recordOutcome(deps, job, { status: 'failed', failureReason: 'provider_unreachable' });
      continue;
    }
    // Still settling at the provider: the next round asks again (no second poll job is queued).
    if (result.status === 'processing' && row.status === 'processing') continue;
    await recordOutcome(deps, job, result);
  }
  return 0;
}

/**
 * Reserves an outgoing transfer's amount (available → locked) and enqueues its send job, in the
 * transaction that creates the payment. The provider check comes after the balance (API.md order).
 */
export async function holdAndQueueTransfer(
  tx: Tx,
  deps: Deps,
  transfer: TransferJob & { partyId: string; currency: Currency; amount: bigint },
  at: Date,
): Promise<void> {
  const job: TransferJob = {
    paymentId: transfer.paymentId,
    workspaceId: transfer.workspaceId,
    environment: transfer.environment,
  };
  await enqueueJob(tx, SEND_JOB, { ...job }, at);
  // The debit comes last: from it to COMMIT the party's balance row is locked, and every other
  // payout of that party waits on it, so nothing that could run before it runs after it.
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
  if (!deps.providers.pix(transfer.environment)) {
    throw new AppError('provider_unavailable', 'No PIX provider is configured for this environment.');
  }
}

const asTransferJob = (job: Job) => job.payload as unknown as TransferJob;

export function registerPixJobs(): void {
  registerJobHandler(SEND_JOB, (deps, job) => sendToProvider(deps, asTransferJob(job)));
  registerJobHandler(POLL_JOB, (deps, job) => pollProvider(deps, asTransferJob(job)));
}

export const PIX_TASKS: BackgroundTask[] = [
  { name: 'pix-charge-expiry', intervalMs: 5_000, run: expireDueCharges },
  { name: 'pix-reconcile', intervalMs: 60_000, run: reconcileProcessing },
];
