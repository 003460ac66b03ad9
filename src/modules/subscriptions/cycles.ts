/**
 * Each cycle of a subscription, in date order: its charge is scheduled inside the BCB's window
 * (2 to 10 days before the due date; CHARGE_LEAD_DAYS before it), the payment is attempted on the due
 * date, a failed attempt is retried as the retry policy allows, and a paid cycle credits the party
 * like any cash-in (fee as a PIX cash-in). Every step is one transaction under the subscription's
 * row lock, and a cycle is keyed by (subscription, sequence): a task that runs twice, or crashes
 * between steps, schedules, charges and credits each cycle once.
 */
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { postDistribution } from '../../ledger/distribution.ts';
import type { Deps } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import type { PspRejection } from '../../providers/pix/provider.ts';
import { pspIdOf } from '../../providers/pix/psp-id.ts';
import { recordSandboxReceived, SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { createPayment, lockPayment, transition } from '../payments/service.ts';
import { feeFor, recoverPartyDebt } from '../pix/service.ts';
import {
  type AttemptRecord,
  type CycleRow,
  cyclesOf,
  insertCycle,
  rowScope,
  type SubscriptionRow,
  takeNextAmount,
  updateCycle,
} from './repo.ts';
import { addDays, CHARGE_WINDOW_DAYS, chargeDateOf, dayOf, dueDateOf, retryDateOf } from './schedule.ts';
import { cycleView, emitSubscriptionEvent } from './views.ts';

const OPEN_CYCLE = new Set(['scheduled', 'retrying']);
export const isOpenCycle = (cycle: CycleRow) => OPEN_CYCLE.has(cycle.status);

const announce = (
  tx: Tx,
  row: SubscriptionRow,
  cycle: CycleRow,
  type: Parameters<typeof emitSubscriptionEvent>[1],
  at: Date,
) => emitSubscriptionEvent(tx, type, row, { ...cycleView(cycle), party_id: row.party_id }, at);

/** The next cycle to schedule, or 'ended' once the next due date is past the end date. */
export function nextCycle(row: SubscriptionRow, cycles: readonly CycleRow[]) {
  const sequence = cycles.length + 1;
  const due = dueDateOf(row.start_date, row.frequency, sequence);
  if (row.end_date && due > row.end_date) return 'ended' as const;
  return { sequence, due };
}

/**
 * The day a cycle's charge goes out: CHARGE_LEAD_DAYS before its due date, or the day the payer
 * authorised when that was later. The sandbox clock may jump months at once; each cycle is then
 * scheduled as of its own day, so its charge is never outside the window.
 */
export function sendDayOf(row: SubscriptionRow, due: string): string {
  const authorised = row.authorised_at ? dayOf(row.authorised_at) : '0000-00-00';
  const planned = chargeDateOf(due);
  return planned > authorised ? planned : authorised;
}

/** A failed attempt: our reason (the payment's failure_reason) and, when the PSP gave one, its rejeicao. */
export interface AttemptFailure {
  reason: string;
  rejection?: PspRejection;
}

/** The attempt a cycle is on: its due date's, or the retry's day. */
const attemptDay = (cycle: CycleRow) => cycle.next_attempt_date ?? cycle.due_date;

const failedAttempt = (cycle: CycleRow, why: AttemptFailure): AttemptRecord => ({
  date: attemptDay(cycle),
  outcome: 'failed',
  rejection_code: why.rejection?.code ?? null,
  rejection_reason: why.rejection?.description || why.reason,
});

/** What a cycle charges: the amount the receiver set for it on a variable subscription, else the fixed amount or the floor. */
export const cycleAmountOf = (row: SubscriptionRow): bigint =>
  (row.amount_minor ?? row.next_amount_minor ?? row.minimum_minor)!;

/**
 * Writes the cycle and its payment (kind pix_automatic, created), or a skipped cycle when its window
 * closed before its charge could go out (an authorisation given too late for it). Live, the cobr is
 * sent to the PSP after this commits (sent_at null until it is). A charged cycle takes the amount
 * the receiver set (the one after it charges the floor unless another is set); a skipped one leaves
 * it for the next.
 */
export async function scheduleCycle(
  tx: Tx,
  _deps: Deps,
  row: SubscriptionRow,
  next: { sequence: number; due: string },
  sendDay: string,
  at: Date,
): Promise<void> {
  const base = {
    workspace_id: row.workspace_id,
    subscription_id: row.id,
    sequence: next.sequence,
    environment: row.environment,
    due_date: next.due,
    amount_minor: cycleAmountOf(row),
    attempts: 0,
  };
  if (sendDay > addDays(next.due, -CHARGE_WINDOW_DAYS.latest)) {
    const skipped = {
      ...base,
      payment_id: null,
      status: 'skipped' as const,
      txid: null,
      sent_at: null,
      next_attempt_date: null,
    };
    const inserted = await insertCycle(tx, skipped, at);
    if (inserted) await announce(tx, row, inserted, 'subscription.cycle_skipped', at);
    return;
  }
  const paymentId = newId();
  const cycle = await insertCycle(
    tx,
    {
      ...base,
      payment_id: paymentId,
      status: 'scheduled',
      txid: pspIdOf(paymentId),
      sent_at: row.environment === 'sandbox' ? at : null,
      next_attempt_date: next.due,
    },
    at,
  );
  if (!cycle) return;
  if (row.next_amount_minor !== null) await takeNextAmount(tx, rowScope(row), row.id);
  await createCyclePayment(tx, row, cycle, paymentId, at);
  await announce(tx, row, cycle, 'subscription.cycle_scheduled', at);
}

/**
 * A paid cycle: the net to the party, the fee to fee revenue, in one journal, then what the party
 * owes of a MED return is recovered from it, as for any cash-in. A payment no longer `created` was
 * credited already, so a second run credits nothing.
 */
export async function creditCycle(
  tx: Tx,
  deps: Deps,
  row: SubscriptionRow,
  cycle: CycleRow,
  at: Date,
  pspEndToEndId?: string,
): Promise<boolean> {
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  const payment = await lockPayment(tx, scope, cycle.payment_id!);
  if (payment.status !== 'created') return false;
  const paid = await updateCycle(
    tx,
    cycle,
    {
      status: 'paid',
      attempts: cycle.attempts + 1,
      nextAttemptDate: null,
      attempt: { date: attemptDay(cycle), outcome: 'paid', rejection_code: null, rejection_reason: null },
    },
    at,
  );
  if (!paid) return false;
  await postDistribution(tx, {
    ...scope,
    referenceType: 'payment',
    referenceId: payment.id,
    at,
    from: systemAccount.pixSettlement(row.workspace_id, row.environment),
    recipients: [
      {
        account: partyAccount(row.workspace_id, row.environment, row.party_id, 'BRL', 'available'),
        amount: payment.amount_minor - payment.fee_minor,
      },
    ],
    fee: {
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, 'BRL'),
      amount: payment.fee_minor,
    },
  });
  await recoverPartyDebt(tx, deps, { ...scope, partyId: row.party_id });
  // A live cobr the PSP calls paid names its PIX; an id made up here would match nothing it lists.
  const e2e =
    pspEndToEndId ?? (row.environment === 'sandbox' ? await sandboxReceived(tx, row, cycle, at) : undefined);
  await transition(tx, scope, payment.id, 'completed', e2e ? { pix_tx_id: e2e } : {}, { at });
  await announce(tx, row, paid, 'subscription.cycle_paid', at);
  return true;
}

/**
 * The sandbox payer's PSP pays the cobr into the sandbox PSP, which lists it (GET /pix) as it lists a
 * paid charge: reconciliation sets that list beside the books, cycles included.
 */
async function sandboxReceived(tx: Tx, row: SubscriptionRow, cycle: CycleRow, at: Date): Promise<string> {
  const e2e = endToEndId(SANDBOX_ISPB, at);
  await recordSandboxReceived(tx, {
    workspaceId: row.workspace_id,
    endToEndId: e2e,
    txid: cycle.txid,
    amountMinor: cycle.amount_minor,
    at,
  });
  return e2e;
}

/**
 * A failed payment attempt: retried on the policy's next day (PERMITE_3R_7D; live, a day after
 * `after`, as the PSP takes only future days), else the cycle and its payment fail. The subscription
 * goes on with its next cycle either way. The cycle as it now stands; undefined when another run
 * moved it first.
 */
export async function failAttempt(
  tx: Tx,
  row: SubscriptionRow,
  cycle: CycleRow,
  at: Date,
  why: AttemptFailure,
  after?: string,
): Promise<CycleRow | undefined> {
  const attempts = cycle.attempts + 1;
  return retryOrFail(tx, row, cycle, at, why, {
    attempts,
    retry: retryDateOf(cycle.due_date, row.retry_policy, attempts, after),
    record: failedAttempt(cycle, why),
  });
}

/**
 * The cycle retrying on `retry` after `attempts` failed attempts, or failed when there is none;
 * `record` is the attempt that failed, when this call counts it (a retry asked again does not).
 */
export async function retryOrFail(
  tx: Tx,
  row: SubscriptionRow,
  cycle: CycleRow,
  at: Date,
  why: AttemptFailure,
  next: { attempts: number; retry: string | null; record?: AttemptRecord },
): Promise<CycleRow | undefined> {
  const { attempts, retry, record } = next;
  if (retry) {
    const moved = await updateCycle(
      tx,
      cycle,
      { status: 'retrying', attempts, nextAttemptDate: retry, attempt: record },
      at,
    );
    if (moved) await announce(tx, row, moved, 'subscription.cycle_retrying', at);
    return moved;
  }
  const failed = await updateCycle(
    tx,
    cycle,
    { status: 'failed', attempts, nextAttemptDate: null, attempt: record },
    at,
  );
  if (!failed) return undefined;
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  await transition(tx, scope, cycle.payment_id!, 'failed', { failure_reason: why.reason }, { at });
  await announce(tx, row, failed, 'subscription.cycle_failed', at);
  return failed;
}

/**
 * On cancellation: the cycles not yet paid are cancelled and their payments expire uncollected. A live
 * cycle stays open instead: its cobr may be at the PSP (or on its way there), and its payer may pay it
 * before it is withdrawn, so live.ts withdraws it (PATCH /cobr) and ends it as the PSP answers.
 */
export async function cancelOpenCycles(tx: Tx, row: SubscriptionRow, at: Date, cycles?: readonly CycleRow[]) {
  if (row.environment === 'live') return;
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  for (const cycle of (cycles ?? (await cyclesOf(tx, scope, row.id))).filter(isOpenCycle))
    await cancelCycle(tx, row, cycle, at);
}

/** One open cycle cancelled, its payment expired; false when another run moved it first. */
export async function cancelCycle(tx: Tx, row: SubscriptionRow, cycle: CycleRow, at: Date): Promise<boolean> {
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  const cancelled = await updateCycle(tx, cycle, { status: 'cancelled', nextAttemptDate: null }, at);
  if (cancelled && cycle.payment_id) await transition(tx, scope, cycle.payment_id, 'expired', {}, { at });
  return !!cancelled;
}

/** The cycle's payment (kind pix_automatic, created), with the debtor as its counterparty. */
async function createCyclePayment(
  tx: Tx,
  row: SubscriptionRow,
  cycle: NonNullable<Awaited<ReturnType<typeof insertCycle>>>,
  paymentId: string,
  at: Date,
): Promise<void> {
  const fee = await feeFor(tx, row.workspace_id, row.environment, 'pix_cash_in', cycle.amount_minor);
  await createPayment(
    tx,
    {
      id: paymentId,
      workspace_id: row.workspace_id,
      environment: row.environment,
      party_id: row.party_id,
      kind: 'pix_automatic',
      amount_minor: cycle.amount_minor,
      currency: 'BRL',
      // A fee above a cycle's amount cannot be taken from it: the cycle is credited whole.
      fee_minor: fee < cycle.amount_minor ? fee : 0n,
      description: row.description,
      pix_txid: cycle.txid,
      provider_ref: row.provider_ref,
      metadata: { subscription_id: row.id, cycle: cycle.sequence, due_date: cycle.due_date },
      counterparty: {
        name: row.debtor_name,
        document: row.debtor_document,
        document_type: row.debtor_document_type,
      },
    },
    { at },
  );
}
