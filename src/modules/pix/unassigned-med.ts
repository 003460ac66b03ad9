/**
 * MED returns on a PIX received without a charge. The PSP gives (part of) such a PIX back on its own,
 * like any other: while it is held, nothing of it is in the books, so each devolução is recorded
 * beside the held PIX, once per id, and what is held is what the PSP received less them (all of it
 * returned, the row is closed as returned). When the PIX is assigned or returned, its cash-in is of
 * the whole amount and those devoluções are applied to it through applyMedReturn, as to a charge, so
 * a later report of one finds it applied. Assigning or returning a held live PIX asks the PSP first,
 * outside the transaction, so money the PSP took back is never credited and no lock waits on it.
 */
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { postJournal } from '../../ledger/ledger.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { ReceivedPix } from '../../providers/pix/provider.ts';
import type { PaymentRow } from '../payments/service.ts';
import { applyMedReturn, applyPspReturns, completedMedReturns } from './med-returns.ts';
import {
  closeReturnedWhole,
  findUnassignedByEndToEnd,
  heldReturnsOf,
  insertHeldReturn,
  lockUnassignedOfRefund,
  reopenUnassigned,
  restoreUnassignedAmount,
  type UnassignedRow,
} from './unassigned-repo.ts';

/**
 * Records on a held (locked, unassigned) PIX the MED devoluções the PSP shows on it, each once, and
 * closes it when they cover all of it. Idempotent whatever the PSP says of the PIX's amount: what is
 * held is what it received (the row's amount) less the devoluções recorded. Answers the row as it now
 * stands, what is left and how many devoluções were recorded now.
 */
export async function holdWhatIsLeft(tx: Tx, locked: UnassignedRow, pix: ReceivedPix | undefined, at: Date) {
  // A PIX held before its devoluções were kept beside it had its amount shrunk by them: it is given
  // back what the PSP received, or they would be taken from it twice.
  const received = pix?.amountMinor;
  const row =
    received !== undefined && received > locked.amount_minor
      ? await restoreUnassignedAmount(tx, locked, received)
      : locked;
  let recorded = 0;
  for (const med of pix ? completedMedReturns(pix) : []) {
    const inserted = await insertHeldReturn(tx, row, {
      return_id: med.returnId,
      rtr_id: med.rtrId,
      natureza: med.natureza,
      amount_minor: med.amountMinor,
      at,
    });
    if (inserted) recorded++;
  }
  const returns = await heldReturnsOf(tx, row);
  const left = row.amount_minor - returns.reduce((sum, r) => sum + r.amount_minor, 0n);
  if (left <= 0n) await closeReturnedWhole(tx, row, at);
  return { row, left, recorded, returns };
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
    return (await holdWhatIsLeft(tx, locked, pix, deps.clock.now())).recorded;
  });
  // Assigned or returned meanwhile: read again, once, and follow it where it went.
  if (outcome === undefined && attempt === 0) return applyUnassignedReturns(deps, workspaceId, pix, 1);
  return outcome ?? 0;
}

/**
 * What the PSP shows now of a held live PIX, asked before the transaction that assigns or returns it
 * (undefined in sandbox, or when the PSP cannot say): no row lock is held while the PSP answers.
 */
export async function pspViewOf(
  deps: Deps,
  row: { environment: Environment; end_to_end_id: string },
): Promise<ReceivedPix | undefined> {
  if (row.environment !== 'live') return undefined;
  return deps.providers.get('pix', 'live').getReceivedPix?.(row.end_to_end_id);
}

/**
 * In the transaction that assigns or returns a held (locked) PIX: the devoluções the PSP showed
 * recorded, and what is left. Refuses one the PSP gave back whole.
 */
export async function heldNow(tx: Tx, deps: Deps, row: UnassignedRow, pix: ReceivedPix | undefined) {
  if (pix) appliableOnce(pix);
  const held = await holdWhatIsLeft(tx, row, pix, deps.clock.now());
  if (held.left <= 0n)
    throw new AppError(
      'invalid_state',
      'The PSP returned this PIX to its payer under MED; nothing is left to assign or return.',
    );
  return held;
}

/**
 * Refuses, as the caller's error, a PIX on which the PSP lists a MED devolução that cannot be applied
 * once and only once (no id, no valor): an operator looks at it first, as at its set-aside item.
 */
function appliableOnce(pix: ReceivedPix): void {
  try {
    completedMedReturns(pix);
  } catch (error) {
    throw new AppError(
      'invalid_state',
      `The PSP lists a MED devolução on this PIX that cannot be applied once (${(error as Error).message}); it cannot be assigned or returned until an operator resolves it.`,
    );
  }
}

/** The devoluções made while a PIX was held, applied to the cash-in it became, each once. */
export async function applyHeldReturns(
  tx: Tx,
  deps: Deps,
  row: UnassignedRow,
  returns: Awaited<ReturnType<typeof heldReturnsOf>>,
  cashInId: string,
): Promise<void> {
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  for (const r of returns)
    await applyMedReturn(tx, deps, scope, cashInId, {
      returnId: r.return_id,
      rtrId: r.rtr_id,
      amountMinor: r.amount_minor,
      natureza: r.natureza,
    });
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
