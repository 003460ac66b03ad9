/** GET /v1/{env}/pix/due-charges: the caller's due-date charges, newest first, a page at a time. */
import type { Queryable } from '../../db/types.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { partyFilter } from '../parties/service.ts';
import type { PaymentRow } from '../payments/service.ts';
import { dueChargeView, todayFor } from './due-charges.ts';
import { listDueChargeRows } from './due-charges-repo.ts';
import type { DueChargeListRequest, DueChargeResponse } from './due-schemas.ts';

/**
 * Filtered by status (cancelled included), due date range and party; a party-scoped key sees its own
 * party's charges only (another party_id is refused before this runs). The cursor is the id of the
 * last charge seen: the query schema takes nothing but a UUID, so no cursor reaches the SQL as text.
 */
export async function listDueCharges(
  q: Queryable,
  ctx: Ctx,
  query: DueChargeListRequest,
): Promise<DueChargeResponse[]> {
  const { caller, deps } = ctx;
  const rows = await listDueChargeRows(q, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId: await partyFilter(q, caller, query.party_id),
    status: query.status,
    dueFrom: query.due_date_from,
    dueBefore: query.due_date_to,
    limit: query.limit,
    cursor: query.cursor,
  });
  const today = await todayFor(q, deps, caller);
  return rows.map(({ payment, charge }) =>
    dueChargeView(payment as unknown as PaymentRow, charge, today, deps),
  );
}
