/**
 * MED returns on a PIX received without a charge. The PSP gives (part of) such a PIX back on its own,
 * like any other: while it is held, nothing of it is in the books, so the held amount shrinks (all of
 * it returned, the row is closed as returned); once assigned, it is a completed pix_cash_in, and the
 * return is applied to it as to a charge (applyMedReturn). Assigning or returning a held PIX in live
 * asks the PSP first, so money the PSP took back is never credited.
 */
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { postJournal } from '../../ledger/ledger.ts';
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { ReceivedPix } from '../../providers/pix/provider.ts';
import type { PaymentRow } from '../payments/service.ts';
import { applyPspReturns, isMedNatureza } from './med-returns.ts';
import {
  findUnassignedByEndToEnd,
  lockUnassignedOfRefund,
  reduceUnassigned,
  reopenUnassigned,
  type UnassignedRow,
} from './repo.ts';

/** What the PSP has given back of a PIX under MED (its completed MED devoluções). */
export function medReturnedOf(pix: ReceivedPix): bigint {
  return pix.returns
    .filter((r) => isMedNatureza(r.natureza) && r.status === 'completed')
    .reduce((sum, r) => sum + (r.amountMinor ?? 0n), 0n);
}

/**
 * Shrinks a held (locked, unassigned) PIX to what the PSP still holds of it. Idempotent: what is
 * left is the PSP's amount less all its returns. Answers what is left, and whether it changed.
 */
async function holdWhatIsLeft(tx: Tx, row: UnassignedRow, pix: ReceivedPix, at: Date) {
  const left = (pix.amountMinor ?? row.amount_minor) - medReturnedOf(pix);
  if (left >= row.amount_minor) return { left: row.amount_minor, changed: false };
  await reduceUnassigned(tx, row, left, at);
  return { left, changed: true };
}

/**
 * The MED returns the PSP shows on a PIX the workspace received without a charge. Answers undefined
 * when the workspace holds no such PIX, else how many changes reached the books.
 */
export async function applyUnassignedReturns(
  deps: Deps,
  workspaceId: string,
  pix: ReceivedPix,
  attempt = 0,
): Promise<number | undefined> {
  const scope = { workspaceId, environment: 'live' as const };
  const row = await findUnassignedByEndToEnd(deps.db, scope, pix.endToEndId);
  if (!row) return undefined;
  if (row.status === 'assigned')
    return applyPspReturns(deps, { id: row.payment_id!, workspace_id: workspaceId }, pix);
  if (row.status === 'returned') return 0;
  const outcome = await deps.db.transaction(async (tx) => {
    const locked = await findUnassignedByEndToEnd(tx, scope, pix.endToEndId, { forUpdate: true });
    if (locked?.status !== 'unassigned') return undefined;
    return (await holdWhatIsLeft(tx, locked, pix, deps.clock.now())).changed ? 1 : 0;
  });
  // Assigned or returned meanwhile: read again, once, and follow it where it went.
  if (outcome === undefined && attempt === 0) return applyUnassignedReturns(deps, workspaceId, pix, 1);
  return outcome ?? 0;
}

/**
 * Before a held live PIX is assigned or returned: what the PSP shows of it now, its MED returns
 * taken off first. Refuses one the PSP gave back whole. Answers the row as it now stands.
 */
export async function checkWithPsp(tx: Tx, deps: Deps, row: UnassignedRow): Promise<UnassignedRow> {
  if (row.environment !== 'live') return row;
  const provider = deps.providers.get('pix', 'live');
  const pix = await provider.getReceivedPix?.(row.end_to_end_id);
  if (!pix) return row;
  const { left } = await holdWhatIsLeft(tx, row, pix, deps.clock.now());
  if (left <= 0n)
    throw new AppError(
      'invalid_state',
      'The PSP returned this PIX to its payer under MED; nothing is left to assign or return.',
    );
  return { ...row, amount_minor: left };
}

/**
 * The return of a held PIX failed (the PSP refused the devolução): the money the refund gave back to
 * the default party was never its own, so it goes back to PIX settlement, where a held PIX's money
 * is, and the PIX is unassigned again, to assign or return once more. In the failing transaction.
 */
export async function reopenFailedReturn(tx: Tx, refund: PaymentRow, at: Date): Promise<void> {
  if (refund.kind !== 'pix_refund') return;
  const held = await lockUnassignedOfRefund(tx, refund.workspace_id, refund.id);
  if (held?.status !== 'returned') return;
  await postJournal(tx, {
    workspaceId: refund.workspace_id,
    environment: refund.environment,
    referenceType: 'payment',
    referenceId: refund.id,
    at,
    postings: [
      {
        account: partyAccount(refund.workspace_id, refund.environment, refund.party_id, 'BRL'),
        direction: 'debit',
        amount: refund.amount_minor,
      },
      {
        account: systemAccount.pixSettlement(refund.workspace_id, refund.environment),
        direction: 'credit',
        amount: refund.amount_minor,
      },
    ],
  });
  await reopenUnassigned(tx, held);
}
