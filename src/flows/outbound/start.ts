/**
 * The first step of an outgoing transfer, in the transaction that creates its payment: the payment
 * row, its amount + fee held (available → locked) and its send job, all committed together or not
 * at all.
 */
import { pipelined, type Tx } from '../../db/types.ts';
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
  // The hold goes first: its debit is sent at once (its job is held to the transaction's end), and the
  // payment's row and event are then held until the request ends, to go in one statement with its
  // Idempotency-Key's record. Both are waited for, failed or not, so no statement of either is sent
  // after the caller gave up.
  const [, created] = await pipelined(
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
    createPayment(tx, payment, { at }),
  );
  return created;
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
  // The job held (it leaves at the transaction's end) and the debit sent before this function first
  // waits: the payment's held rows must not go ahead of the debit.
  const queued = enqueueJob(tx, flow.sendJob, job, at);
  const debited = moveKind(tx, {
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
  await pipelined(queued, debited);
  deps.providers.require(flow.rail.provider, transfer.environment);
}
