/** PIX payouts and refunds on the outbound flow: how they reach the PSP and where their money leaves. */
import type { Tx } from '../../db/types.ts';
import { type OutboundRail, outboundFlow, type TransferOutcome } from '../../flows/outbound/index.ts';
import { systemAccount } from '../../ledger/accounts.ts';
import type { Deps } from '../../platform/context.ts';
import type { PixKeyType } from '../../providers/pix/keys.ts';
import type { ProviderTransfer } from '../../providers/pix/provider.ts';
import { findPayment, type PaymentRow, type PaymentScope, transition } from '../payments/service.ts';
import { recoverPartyDebt } from './med-returns.ts';
import { returnedOfCharge } from './repo.ts';
import { reopenFailedReturn } from './unassigned-med.ts';

const outcomeOf = (result: ProviderTransfer): TransferOutcome => ({
  status: result.status,
  providerRef: result.providerRef,
  failureReason: result.failureReason,
  completed: { pix_tx_id: result.endToEndId ?? null },
});

const scopeOf = (row: PaymentRow): PaymentScope => ({
  workspaceId: row.workspace_id,
  environment: row.environment,
});

/** The end-to-end id of the cash-in a refund returns: the PSP finds the refund under it. */
async function originalEndToEndId(deps: Deps, row: PaymentRow): Promise<string | null> {
  if (row.kind !== 'pix_refund' || !row.related_payment_id) return null;
  return (await findPayment(deps.db, scopeOf(row), row.related_payment_id))?.pix_tx_id ?? null;
}

async function sendTransfer(deps: Deps, row: PaymentRow): Promise<TransferOutcome> {
  const provider = deps.providers.get('pix', row.environment);
  if (row.kind === 'pix_refund') {
    return outcomeOf(
      await provider.sendRefund({
        paymentId: row.id,
        originalEndToEndId: await originalEndToEndId(deps, row),
        amountMinor: row.amount_minor,
      }),
    );
  }
  const counterparty = (row.counterparty ?? {}) as { pix_key_type?: PixKeyType };
  return outcomeOf(
    await provider.sendPayout({
      paymentId: row.id,
      amountMinor: row.amount_minor,
      pixKey: row.pix_key!,
      pixKeyType: counterparty.pix_key_type ?? 'evp',
      description: row.description,
    }),
  );
}

async function transferStatus(deps: Deps, row: PaymentRow): Promise<TransferOutcome> {
  const direction = row.kind === 'pix_refund' ? 'refund' : 'payout';
  const originalEndToEnd = await originalEndToEndId(deps, row);
  const provider = deps.providers.get('pix', row.environment);
  return outcomeOf(await provider.getStatus(row.id, { direction, originalEndToEndId: originalEndToEnd }));
}

/**
 * The original cash-in becomes `refunded` once completed refunds add up to all of it. The original is
 * locked first, then its refunds summed in a statement of their own (a distributed database takes no
 * FOR UPDATE over a subquery): two completing refunds of one original queue on that lock, and the
 * second sums after the first committed (test/pix/refunds-concurrency.test.ts).
 */
async function markRefundedWhenWhole(tx: Tx, row: PaymentRow, at: Date): Promise<void> {
  if (row.kind !== 'pix_refund' || !row.related_payment_id) return;
  const original = await lockRefundable(tx, row.workspace_id, row.related_payment_id);
  if (original && original.status === 'completed' && original.refunded >= original.amount) {
    await transition(tx, scopeOf(row), row.related_payment_id, 'refunded', {}, { at });
  }
}

/** The original cash-in, locked, with what its completed refunds add up to. */
async function lockRefundable(tx: Tx, workspaceId: string, id: string) {
  const { rows } = await tx.query<{ amount: bigint; status: string }>(
    'SELECT amount_minor AS amount, status FROM payments WHERE workspace_id = $1 AND id = $2 FOR UPDATE',
    [workspaceId, id],
  );
  if (!rows[0]) return undefined;
  // A MED return the PSP made counts as refunded: refunds and returns together cover the charge.
  return { ...rows[0], refunded: await returnedOfCharge(tx, workspaceId, id, ['completed']) };
}

export const pixRail: OutboundRail = {
  provider: 'pix',
  jobPrefix: 'pix',
  paymentKinds: ['pix_cash_out', 'pix_refund'],
  send: sendTransfer,
  status: transferStatus,
  settlementAccount: (row) => systemAccount.pixSettlement(row.workspace_id, row.environment),
  afterCompleted: markRefundedWhenWhole,
  // A failed return of a held PIX gives its money back to suspense, not to the party; any other hold
  // given back is a credit like any other: what the party owes of MED returns is paid from it at once,
  // before the party can send it out again.
  afterFailed: async (tx, deps, row, at) => {
    await reopenFailedReturn(tx, row, at);
    await recoverPartyDebt(tx, deps, {
      workspaceId: row.workspace_id,
      environment: row.environment,
      partyId: row.party_id,
    });
  },
  pollDelayMs: (deps, environment) =>
    environment === 'sandbox' ? Math.max(50, deps.config.sandboxSettleMs) : 2000,
};

/** PIX payouts and refunds: held, sent, polled, settled and reconciled by the one outbound flow. */
export const pixTransfers = outboundFlow(pixRail);
