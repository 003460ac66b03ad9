/**
 * Payments core: the one module that writes payment records. Other modules (PIX payouts and charges,
 * crypto sends and deposits, RFQ) create and move payments only through these functions, inside the
 * transaction that also moves the money:
 *
 *   const payment = await createPayment(tx, { workspace_id, environment, party_id, kind, amount_minor,
 *     currency, status?, fee_minor?, id?, ...details }, { at });           // emits payment.<status>
 *   await postJournal(tx, { ..., referenceType: 'payment', referenceId: payment.id, postings });
 *   await transition(tx, scope, payment.id, 'processing', { tx_hash });   // emits payment.processing
 *
 * - Every status a payment enters (its first one included) emits exactly one `payment.<status>` event
 *   through emitEvent, in the same transaction: no change without its event.
 * - transition() only follows PAYMENT_TRANSITIONS; anything else is 422 invalid_state (or 404 when the
 *   payment is not in the scope). It locks the row by updating it, so two settlements of one payment
 *   cannot both succeed.
 * - Views are wire objects (strings for amounts, ISO dates), so a stored idempotent response and an
 *   event payload are exactly what GET returns.
 */
import { afterCommit, type Queryable, type Tx } from '../../db/types.ts';
import { type Currency, formatAmount } from '../../ledger/currency.ts';
import type { Caller, Environment } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { parkedSubjects } from '../../platform/jobs.ts';
import { paymentTransitions } from '../../platform/metrics.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { maskCounterparty } from '../../platform/payer-document.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { waitingSetAside } from '../../platform/set-aside.ts';
import { partyFilter } from '../parties/service.ts';
import {
  fillMissingBrCode,
  findPaymentRow,
  listPaymentRows,
  type PaymentDetails,
  type PaymentRow,
  type PaymentScope,
  paymentIdsIn,
  paymentInsert,
  type StaleTransferFilter,
  type StaleTransferRow,
  staleTransferRows,
  updatePaymentStatus,
  updateWaitingAmount,
  updateWaitingTerms,
} from './repo.ts';
import type { PaymentKind, PaymentStatus, PaymentView } from './schemas.ts';

export type { PaymentDetails, PaymentRow, PaymentScope, StaleTransferRow } from './repo.ts';

/** The moves a payment may make (API.md Payments). */
export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  created: ['processing', 'completed', 'failed', 'expired'],
  processing: ['completed', 'failed'],
  completed: ['refunded'],
  failed: [],
  expired: [],
  refunded: [],
};

export function paymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    party_id: row.party_id,
    environment: row.environment,
    kind: row.kind,
    status: row.status,
    amount_minor: formatAmount(row.amount_minor),
    currency: row.currency,
    fee_minor: formatAmount(row.fee_minor),
    description: row.description,
    provider_ref: row.provider_ref,
    pix_qr_code: row.pix_qr_code,
    pix_tx_id: row.pix_tx_id,
    pix_txid: row.pix_txid,
    pix_key: row.pix_key,
    to_address: row.to_address,
    from_address: row.from_address,
    network: row.network,
    tx_hash: row.tx_hash,
    failure_reason: row.failure_reason,
    metadata: row.metadata ?? {},
    idempotency_key: row.idempotency_key,
    counterparty: maskCounterparty(row.counterparty),
    wallet_id: row.wallet_id,
    source_currency: row.source_currency,
    target_currency: row.target_currency,
    exchange_rate: row.exchange_rate,
    quote_id: row.quote_id,
    related_payment_id: row.related_payment_id,
    expires_at: iso(row.expires_at),
    completed_at: iso(row.completed_at),
    failed_at: iso(row.failed_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export interface NewPayment extends PaymentDetails {
  /** Pass an id made with newId() when the journal or a provider call needs it first. */
  id?: string;
  workspace_id: string;
  environment: Environment;
  party_id: string;
  kind: PaymentKind;
  /** Defaults to 'created'; a payment born settled (a simulated cash-in) starts 'completed'. */
  status?: PaymentStatus;
  amount_minor: bigint;
  currency: Currency;
  fee_minor?: bigint;
}

async function emitPaymentEvent(tx: Tx, row: PaymentRow, at: Date): Promise<PaymentView> {
  const view = paymentView(row);
  afterCommit(tx, () =>
    paymentTransitions.inc({ kind: row.kind, status: row.status, environment: row.environment }),
  );
  await emitEvent(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: `payment.${row.status}`,
    object: view,
    at,
  });
  return view;
}

/** Inserts a payment and emits payment.<status> for its first status. */
export async function createPayment(
  tx: Tx,
  input: NewPayment,
  options: { at?: Date } = {},
): Promise<PaymentView> {
  const at = options.at ?? new Date();
  const {
    id,
    workspace_id,
    environment,
    party_id,
    kind,
    status,
    amount_minor,
    currency,
    fee_minor,
    ...details
  } = input;
  if (typeof amount_minor !== 'bigint' || amount_minor < 0n)
    throw new Error('amount_minor must be a bigint ≥ 0');
  const initial = status ?? 'created';
  const { write, row } = paymentInsert(
    {
      id: id ?? newId(),
      workspace_id,
      environment,
      party_id,
      kind,
      status: initial,
      amount_minor,
      currency,
      fee_minor: fee_minor ?? 0n,
      completed_at: initial === 'completed' ? at : null,
      failed_at: initial === 'failed' ? at : null,
      at,
    },
    details.counterparty === undefined
      ? details
      : { ...details, counterparty: maskCounterparty(details.counterparty) },
  );
  // Held, as its event is: the row, the event and its deliveries go as one statement.
  tx.hold(write);
  return emitPaymentEvent(tx, row, at);
}

/**
 * Moves a payment to `to` (following PAYMENT_TRANSITIONS), setting the given details with it
 * (failure_reason, tx_hash, pix_tx_id, provider_ref…), and emits payment.<to>.
 * 404 not_found when the payment is not in the scope; 422 invalid_state when the move is not allowed.
 */
export async function transition(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  to: PaymentStatus,
  details: PaymentDetails = {},
  options: { at?: Date } = {},
): Promise<PaymentView> {
  const at = options.at ?? new Date();
  const from = (Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[]).filter((status) =>
    PAYMENT_TRANSITIONS[status].includes(to),
  );
  const row = await updatePaymentStatus(tx, scope, id, { to, from, at, details });
  if (row) return emitPaymentEvent(tx, row, at);
  const current = await findPaymentRow(tx, scope, id);
  if (!current) throw notFound('Payment');
  throw new AppError('invalid_state', `A ${current.status} payment cannot become ${to}.`);
}

/**
 * A waiting charge's amount and fee become what is paid (a due-date charge's amount due on the day),
 * in the transaction that credits it; the payment.completed that follows carries them.
 */
export async function repriceWaitingCharge(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  change: { amount: bigint; fee: bigint; at: Date },
): Promise<PaymentRow> {
  const row = await updateWaitingAmount(tx, scope, id, change);
  if (!row) throw new AppError('invalid_state', 'Only a waiting charge can be paid.');
  return row;
}

/**
 * A waiting charge's terms revised by its receiver (a due-date charge's PATCH): amount, fee, expiry
 * and payer change together and payment.updated carries them; 422 invalid_state once it is not waiting.
 */
export async function reviseWaitingCharge(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  change: { amount: bigint; fee: bigint; expiresAt: Date; counterparty: Record<string, unknown>; at: Date },
): Promise<PaymentView> {
  const row = await updateWaitingTerms(tx, scope, id, {
    ...change,
    counterparty: maskCounterparty(change.counterparty) ?? {},
  });
  if (!row) throw new AppError('invalid_state', 'Only a waiting charge can be revised.');
  await emitEvent(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: 'payment.updated',
    object: paymentView(row),
    at: change.at,
  });
  return paymentView(row);
}

/** The PSP's BR Code for a live charge recorded without one, once the PSP has made it. */
export { fillMissingBrCode };

/** A payment of the scope as stored (undefined when the scope has none), for the flows that move it. */
export function findPayment(q: Queryable, scope: PaymentScope, id: string): Promise<PaymentRow | undefined> {
  return findPaymentRow(q, scope, id);
}

/** A payment of the scope, locked until the transaction ends (to settle it, for instance). */
export async function lockPayment(tx: Tx, scope: PaymentScope, id: string): Promise<PaymentRow> {
  const row = await findPaymentRow(tx, scope, id, { forUpdate: true });
  if (!row) throw notFound('Payment');
  return row;
}

/** How many transfers one round of the reconciliation sweep looks at. */
const STALE_ROUND = 100;
/** How many of the oldest created transfers are asked whether their jobs gave up. */
const CREATED_CANDIDATES = 1000;

/**
 * Outgoing payments of the given kinds that no job moves any more, oldest change first, 100 at
 * most: left in processing, or still created with every job of theirs ended and one parked; for the
 * outbound flow's reconciliation sweep. The payments, the set-aside items and the jobs are read in
 * separate statements (on Citus the last two stay on the coordinator and cannot meet the payments
 * in one), so the jobs are asked only about the 1000 oldest created candidates: were more than that
 * many created transfers, older than a parked one, still being retried by their jobs, the parked
 * one would wait for a later round, once those have moved. Their jobs park them after about 1 h 40
 * min, so a parked transfer is almost always among the oldest, and found in its round as before.
 */
export async function findStaleTransfers(
  q: Queryable,
  filter: StaleTransferFilter,
): Promise<StaleTransferRow[]> {
  const waiting = await waitingSetAside(q, filter.setAsideSource, filter.now);
  const query = { kinds: filter.kinds, updatedBefore: filter.updatedBefore, waiting };
  const processing = await staleTransferRows(q, { ...query, status: 'processing', limit: STALE_ROUND });
  const created = await staleTransferRows(q, { ...query, status: 'created', limit: CREATED_CANDIDATES });
  const parked = new Set(
    await parkedSubjects(
      q,
      created.map((row) => row.id),
      filter.parkedBefore,
    ),
  );
  return [...processing, ...created.filter((row) => parked.has(row.id))]
    .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime())
    .slice(0, STALE_ROUND)
    .map(({ id, workspace_id, environment, status }) => ({ id, workspace_id, environment, status }));
}

/** Of `ids` (payment ids as text), those of payments now in one of `statuses`: a sweep's check on what it set aside. */
export function paymentsStillIn(
  q: Queryable,
  ids: readonly string[],
  statuses: readonly PaymentStatus[],
): Promise<string[]> {
  return paymentIdsIn(q, ids, statuses);
}

const callerScope = (caller: Caller): PaymentScope => ({
  workspaceId: caller.workspaceId,
  environment: caller.environment,
  partyId: caller.partyId,
});

export async function getPayment(q: Queryable, ctx: Ctx, input: { id: string }): Promise<PaymentView> {
  const row = await findPaymentRow(q, callerScope(ctx.caller), input.id);
  if (!row) throw notFound('Payment');
  return paymentView(row);
}

export async function listPayments(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; status?: PaymentStatus; kind?: PaymentKind; party_id?: string },
): Promise<PaymentView[]> {
  const { caller } = ctx;
  const rows = await listPaymentRows(q, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId: await partyFilter(q, caller, query.party_id),
    status: query.status,
    kind: query.kind,
    cursor: query.cursor,
    limit: query.limit ?? 50,
  });
  return rows.map(paymentView);
}

/** The payments of one wallet (its sends and deposits), newest first; the wallet is the caller's to check. */
export async function listWalletPayments(
  q: Queryable,
  scope: PaymentScope,
  query: { walletId: string; limit?: number; cursor?: string },
): Promise<PaymentView[]> {
  const rows = await listPaymentRows(q, {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    partyId: scope.partyId ?? null,
    walletId: query.walletId,
    cursor: query.cursor,
    limit: query.limit ?? 50,
  });
  return rows.map(paymentView);
}
