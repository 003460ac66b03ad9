/**
 * Recording what the provider said about a transfer, in a transaction of its own with the payment's
 * row locked: created → processing (and a poll job while it settles), then locked → the rail's
 * settlement account (+ fee revenue), completed; or locked → available, failed. A payment no longer
 * open is left as it is, so a job run twice, the reconciliation sweep and a sandbox helper racing
 * each other settle it once.
 */
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import type { Currency } from '../../ledger/currency.ts';
import { postDistribution } from '../../ledger/distribution.ts';
import { moveKind } from '../../ledger/ledger.ts';
import {
  lockPayment,
  type PaymentDetails,
  type PaymentRow,
  transition,
} from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { jobOf, OPEN, type Outbound, scopeOf, type TransferJob, type TransferOutcome } from './rail.ts';

/**
 * Applies a provider's answer to the transfer. Returns whether the payment moved (left `created`,
 * or settled either way): an answer about a transfer already settled, or one still processing,
 * moves nothing.
 */
export async function recordOutcome(
  flow: Outbound,
  deps: Deps,
  job: TransferJob,
  result: TransferOutcome,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await lockPayment(tx, scopeOf(job), job.paymentId);
    if (!OPEN.has(row.status)) return false;
    const at = deps.clock.now();
    if (row.status === 'created') {
      const details = { provider_ref: result.providerRef ?? null, ...result.processing };
      await transition(tx, scopeOf(job), row.id, 'processing', details, { at });
    }
    if (result.status === 'processing') {
      const pollAt = new Date(at.getTime() + flow.rail.pollDelayMs(deps, job.environment));
      await enqueueJob(tx, flow.pollJob, job, pollAt);
    } else if (result.status === 'completed') {
      await settle(flow, tx, row, at, result.completed ?? {});
    } else if (result.status === 'failed') {
      await returnFunds(tx, row, at, result.failureReason ?? 'provider_failed');
      await flow.rail.afterFailed?.(tx, deps, row, at);
    }
    return row.status === 'created' || result.status === 'completed' || result.status === 'failed';
  });
}

/** A completed transfer: its money leaves locked for the rail's settlement account and the fee revenue. */
async function settle(flow: Outbound, tx: Tx, row: PaymentRow, at: Date, details: PaymentDetails) {
  const currency = row.currency as Currency;
  await postDistribution(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    referenceType: 'payment',
    referenceId: row.id,
    at,
    from: partyAccount(row.workspace_id, row.environment, row.party_id, currency, 'locked'),
    recipients: [{ account: flow.rail.settlementAccount(row), amount: row.amount_minor }],
    fee: {
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, currency),
      amount: row.fee_minor,
    },
  });
  await transition(tx, scopeOf(jobOf(row)), row.id, 'completed', details, { at });
  await flow.rail.afterCompleted?.(tx, row, at);
}

/** A failed transfer: its amount + fee go back from locked to available, and it fails with the reason. */
async function returnFunds(tx: Tx, row: PaymentRow, at: Date, failureReason: string) {
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
  await transition(tx, scopeOf(jobOf(row)), row.id, 'failed', { failure_reason: failureReason }, { at });
}
