/**
 * Opening a dispute: a MED infraction on a PIX cash-in, reported by the PSP (live) or the sandbox
 * simulator. The disputed amount moves from the credited party's available BRL to locked, as far as
 * available goes; what it cannot cover is recorded (held_minor < amount_minor), never borrowed.
 */
import type { Tx } from '../../db/types.ts';
import { lockBalance, partyAccount } from '../../ledger/accounts.ts';
import { moveKind } from '../../ledger/ledger.ts';
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { lockPayment } from '../payments/service.ts';
import { type DisputeRow, findByInfraction, findOpenOfPayment, insertDispute, type Scope } from './repo.ts';
import { disputeView } from './view.ts';

/** The defense deadline when the PSP gives none: three days, the MED's usual window for the receiver. */
export const DEFAULT_DEADLINE_MS = 3 * 24 * 3600_000;

export interface OpenInput {
  paymentId: string;
  infractionId: string;
  reason: string;
  /** The disputed amount; the whole cash-in when undefined. */
  amountMinor?: bigint;
  openedAt: Date;
  deadlineAt?: Date;
}

/**
 * Opens the dispute in the caller's transaction, the cash-in locked; once per infraction id (a
 * second report of the same infraction answers the dispute it opened, and `created` false).
 */
export async function openDispute(
  tx: Tx,
  deps: Deps,
  scope: Scope & { partyId?: string | null },
  input: OpenInput,
): Promise<{ row: DisputeRow; created: boolean }> {
  const known = await findByInfraction(tx, scope, input.infractionId);
  if (known) return { row: known, created: false };
  const payment = await lockPayment(tx, scope, input.paymentId);
  // Again under the cash-in's lock: another worker's poll may have opened it while this one waited.
  const opened = await findByInfraction(tx, scope, input.infractionId);
  if (opened) return { row: opened, created: false };
  if (payment.kind !== 'pix_cash_in' || payment.status !== 'completed')
    throw new AppError('invalid_state', 'Only a paid PIX cash-in (pix_cash_in, completed) can be disputed.');
  const amount = input.amountMinor ?? payment.amount_minor;
  if (amount <= 0n || amount > payment.amount_minor)
    throw new AppError('invalid_amount', `A dispute of this payment is of 1 to ${payment.amount_minor}.`, [
      { field: 'body.amount_minor', issue: `must be between 1 and ${payment.amount_minor}` },
    ]);
  if (await findOpenOfPayment(tx, scope, payment.id))
    throw new AppError(
      'conflict',
      'This payment already has an open dispute: at most one is open at a time.',
    );
  const id = newId();
  const owner = { workspaceId: scope.workspaceId, environment: scope.environment, partyId: payment.party_id };
  // The books and the record's own times run on the service's clock; only the deadline on the dispute's.
  const at = deps.clock.now();
  const held = await holdWhatIsThere(tx, owner, id, amount, at);
  const row = await insertDispute(tx, {
    workspace_id: scope.workspaceId,
    id,
    environment: scope.environment,
    party_id: payment.party_id,
    payment_id: payment.id,
    infraction_id: input.infractionId,
    reason: input.reason,
    amount_minor: amount,
    held_minor: held,
    opened_at: input.openedAt,
    deadline_at: input.deadlineAt ?? new Date(input.openedAt.getTime() + DEFAULT_DEADLINE_MS),
    created_at: at,
    updated_at: at,
  });
  await emitEvent(tx, {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    type: 'dispute.opened',
    object: disputeView(row),
    at,
  });
  return { row, created: true };
}

/** Moves min(available, amount) to locked under the dispute's reference; returns what it moved. */
async function holdWhatIsThere(
  tx: Tx,
  scope: Scope & { partyId: string },
  disputeId: string,
  amount: bigint,
  at: Date,
): Promise<bigint> {
  const available = await lockBalance(
    tx,
    partyAccount(scope.workspaceId, scope.environment, scope.partyId, 'BRL', 'available'),
  );
  const held = available < amount ? (available > 0n ? available : 0n) : amount;
  if (held > 0n) await moveHold(tx, scope, disputeId, held, 'hold', at);
  return held;
}

/** One journal of a dispute's hold: available → locked to hold, locked → available to release. */
export function moveHold(
  tx: Tx,
  scope: Scope & { partyId: string },
  disputeId: string,
  amount: bigint,
  way: 'hold' | 'release',
  at: Date,
) {
  return moveKind(tx, {
    workspaceId: scope.workspaceId,
    environment: scope.environment,
    partyId: scope.partyId,
    currency: 'BRL',
    from: way === 'hold' ? 'available' : 'locked',
    to: way === 'hold' ? 'locked' : 'available',
    amount,
    referenceType: 'dispute',
    referenceId: disputeId,
    at,
  });
}
