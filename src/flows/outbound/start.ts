/**
 * The first step of an outgoing transfer, in the transaction that creates its payment: the payment
 * row, its amount + fee held (available → locked) and its send job, all committed together or not
 * at all.
 */
import type { Tx } from '../../db/types.ts';
import type { Currency } from '../../ledger/currency.ts';
import { moveKind } from '../../ledger/ledger.ts';
import type { PaymentView } from '../../modules/payments/schemas.ts';
import { createPayment, type NewPayment } from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { jobOf, type Outbound, type TransferJob } from './rail.ts';

export interface HeldTransfer extends TransferJob {
  partyId: string;
  currency: Currency;
  /** Amount + fee: what leaves the party's available balance. */
  amount: bigint;
}

/**
 * Creates an outgoing payment and holds its amount + fee for the provider, in the caller's
 * transaction: what a payout, refund or send does once its checks pass.
 */
export async function start(
  flow: Outbound,
  tx: Tx,
  deps: Deps,
  payment: NewPayment & { id: string },
  at: Date,
): Promise<PaymentView> {
  // The payment row and the hold travel together (pipelined: neither reads what the other writes).
  // Both are waited for, failed or not, so no statement of either is sent after the caller gave up.
  const [created, held] = await Promise.allSettled([
    createPayment(tx, payment, { at }),
    hold(
      flow,
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
}

/**
 * Reserves a transfer's amount (available → locked) and enqueues its send job, in the transaction
 * that creates the payment. The provider check comes after the balance (API.md order).
 */
async function hold(flow: Outbound, tx: Tx, deps: Deps, transfer: HeldTransfer, at: Date): Promise<void> {
  const job = jobOf({
    id: transfer.paymentId,
    workspace_id: transfer.workspaceId,
    environment: transfer.environment,
  });
  await enqueueJob(tx, flow.sendJob, job, at);
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
  deps.providers.require(flow.rail.provider, transfer.environment);
}
