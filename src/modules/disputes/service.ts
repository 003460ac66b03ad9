/** What other modules may ask of the disputes module, and the read side of its routes. */
import type { Queryable } from '../../db/types.ts';
import { InsufficientBalanceError } from '../../ledger/ledger.ts';
import type { Environment } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { partyFilter } from '../parties/service.ts';
import { findDispute, heldByParty, listDisputeRows } from './repo.ts';
import type { DisputeStatus, DisputeView } from './schemas.ts';
import { disputeView } from './view.ts';

/**
 * Runs a debit of a party's money and, when its available BRL cannot cover it while open disputes
 * hold part of the party's BRL in locked, says so: the 422 insufficient_balance names the amount the
 * disputes hold and their ids, so a merchant sees why money it was credited cannot be converted.
 */
export async function explainDisputeHolds<T>(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment; partyId: string },
  debit: () => Promise<T>,
): Promise<T> {
  try {
    return await debit();
  } catch (error) {
    if (!(error instanceof InsufficientBalanceError)) throw error;
    const { account } = error;
    if (account.type !== 'party' || account.kind !== 'available' || account.currency !== 'BRL') throw error;
    const { held, ids } = await heldByParty(q, scope);
    if (held === 0n) throw error;
    // The same refusal (its code, its details), saying what the disputes hold.
    throw new AppError(
      error.code,
      `${error.message} ${held} BRL minor units of this party are locked by open dispute(s) ${ids.join(', ')} until they close.`,
      [
        ...(error.details ?? []),
        { field: 'disputes', issue: `${held} BRL minor units locked by open dispute(s) ${ids.join(', ')}` },
      ],
    );
  }
}

export async function listDisputes(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; status?: DisputeStatus; party_id?: string; payment_id?: string },
): Promise<DisputeView[]> {
  const { caller } = ctx;
  const rows = await listDisputeRows(q, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId: await partyFilter(q, caller, query.party_id),
    status: query.status,
    paymentId: query.payment_id,
    cursor: query.cursor,
    limit: query.limit,
  });
  return rows.map(disputeView);
}

export async function getDispute(q: Queryable, ctx: Ctx, input: { id: string }): Promise<DisputeView> {
  const { caller } = ctx;
  const row = await findDispute(
    q,
    { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId },
    input.id,
  );
  if (!row) throw notFound('Dispute');
  return disputeView(row);
}
