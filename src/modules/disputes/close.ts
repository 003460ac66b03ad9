/**
 * Closing a dispute, once: its hold goes back to available, then a return (closed_returned) takes
 * the money through the PIX module's MED return flow, which debits available and records as a debt
 * what the party cannot cover; a rejection (closed_rejected) leaves the money with the party.
 */
import type { Tx } from '../../db/types.ts';
import type { Deps } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { applyMedReturn, type MedNatureza, returnableOfCharge } from '../pix/index.ts';
import { recoverPartyDebt } from '../pix/service.ts';
import { moveHold } from './open.ts';
import { type DisputeRow, findDispute, recordClosed, type Scope } from './repo.ts';
import type { CloseOutcome } from './schemas.ts';
import { disputeView } from './view.ts';

/** A devolução the PSP made for the infraction, as its API shows it (live), to apply under its own id. */
export interface PspMedReturn {
  returnId: string;
  rtrId: string | null;
  amountMinor: bigint;
  natureza: MedNatureza;
}

export interface CloseInput {
  disputeId: string;
  outcome: CloseOutcome;
  at: Date;
  /**
   * Live: the MED devoluções the PSP shows on the PIX, applied under their own ids (so the PIX module's
   * own polls find them applied). Sandbox (undefined): the simulator's return of the disputed amount.
   */
  pspReturns?: readonly PspMedReturn[];
}

const STATUS_OF = { returned: 'closed_returned', rejected: 'closed_rejected' } as const;

/** Closes the dispute in the caller's transaction; closing it again with the same outcome answers it as it is. */
export async function closeDispute(
  tx: Tx,
  deps: Deps,
  scope: Scope & { partyId?: string | null },
  input: CloseInput,
): Promise<{ row: DisputeRow; closed: boolean }> {
  const row = await findDispute(tx, scope, input.disputeId, true);
  if (!row) throw notFound('Dispute');
  const status = STATUS_OF[input.outcome];
  if (row.status === status) return { row, closed: false };
  if (row.status === 'closed_returned' || row.status === 'closed_rejected')
    throw new AppError('invalid_state', `The dispute is already ${row.status}; it cannot become ${status}.`);
  const owner = { workspaceId: row.workspace_id, environment: row.environment, partyId: row.party_id };
  if (row.held_minor > 0n) await moveHold(tx, owner, row.id, row.held_minor, 'release', input.at);
  const returnPaymentId = input.outcome === 'returned' ? await applyReturns(tx, deps, row, input) : null;
  // Whatever the party owes of earlier returns is paid from the released money first, as from any credit.
  await recoverPartyDebt(tx, deps, owner);
  const closed = await recordClosed(tx, row, { status, returnPaymentId, at: input.at });
  await emitEvent(tx, {
    workspaceId: owner.workspaceId,
    environment: owner.environment,
    type: 'dispute.closed',
    object: disputeView(closed),
    at: input.at,
  });
  return { row: closed, closed: true };
}

async function applyReturns(tx: Tx, deps: Deps, row: DisputeRow, input: CloseInput): Promise<string | null> {
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  const returns = input.pspReturns ?? (await simulatedReturns(tx, row));
  let paymentId: string | null = null;
  for (const medReturn of returns) {
    const payment = await applyMedReturn(tx, deps, scope, row.payment_id, medReturn);
    paymentId ??= payment?.id ?? null;
  }
  return paymentId;
}

/**
 * The sandbox's devolução of the disputed amount, as far as the charge still has it: a payer the
 * merchant refunded while the dispute was open is not paid twice, and the close does not fail on it.
 */
async function simulatedReturns(tx: Tx, row: DisputeRow): Promise<PspMedReturn[]> {
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  const left = await returnableOfCharge(tx, scope, row.payment_id);
  const amount = row.amount_minor < left ? row.amount_minor : left;
  if (amount <= 0n) return [];
  // One id per dispute: a close repeated after a lost answer finds the return applied.
  return [{ returnId: `dispute:${row.id}`, rtrId: null, amountMinor: amount, natureza: 'MED_FRAUDE' }];
}
