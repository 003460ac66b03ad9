/**
 * SQL of PIX held without a charge (pix_unassigned) and of the MED devoluções the PSP made while one
 * was held (pix_unassigned_returns). A held row keeps what the PSP received; what is held is that
 * less its returns.
 */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById } from '../../platform/pagination.ts';
import type { MedNatureza } from './med-returns.ts';

export interface UnassignedRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  end_to_end_id: string;
  amount_minor: bigint;
  payer_info: string | null;
  status: 'unassigned' | 'assigned' | 'returned';
  payment_id: string | null;
  refund_id: string | null;
  received_at: Date;
  resolved_at: Date | null;
}

/** Records a PIX received without a charge; false when that end-to-end id is recorded already. */
export async function insertUnassigned(
  q: Queryable,
  row: Pick<
    UnassignedRow,
    'workspace_id' | 'id' | 'environment' | 'end_to_end_id' | 'amount_minor' | 'payer_info' | 'received_at'
  >,
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO pix_unassigned (workspace_id, id, environment, end_to_end_id, amount_minor, payer_info, status, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'unassigned', $7)
     ON CONFLICT (workspace_id, environment, end_to_end_id) DO NOTHING RETURNING id`,
    [
      row.workspace_id,
      row.id,
      row.environment,
      row.end_to_end_id,
      row.amount_minor,
      row.payer_info,
      row.received_at,
    ],
  );
  return rows.length === 1;
}

export async function findUnassigned(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<UnassignedRow | undefined> {
  const { rows } = await q.query<UnassignedRow>(
    `SELECT * FROM pix_unassigned WHERE workspace_id = $1 AND environment = $2 AND id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [scope.workspaceId, scope.environment, id],
  );
  return rows[0];
}

/** The held PIX of one end-to-end id in a workspace (what a MED notification names). */
export async function findUnassignedByEndToEnd(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  endToEndId: string,
  options: { forUpdate?: boolean } = {},
): Promise<UnassignedRow | undefined> {
  const { rows } = await q.query<UnassignedRow>(
    `SELECT * FROM pix_unassigned WHERE workspace_id = $1 AND environment = $2 AND end_to_end_id = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [scope.workspaceId, scope.environment, endToEndId],
  );
  return rows[0];
}

/** A held PIX the PSP returned whole under MED: closed as returned, with no refund of ours. */
export async function closeReturnedWhole(q: Queryable, row: UnassignedRow, at: Date): Promise<void> {
  await q.query(
    `UPDATE pix_unassigned SET status = 'returned', resolved_at = $3
      WHERE workspace_id = $1 AND id = $2 AND status = 'unassigned'`,
    [row.workspace_id, row.id, at],
  );
}

/** A held PIX's amount set back to what the PSP received: the row as it now stands. */
export async function restoreUnassignedAmount(
  q: Queryable,
  row: UnassignedRow,
  received: bigint,
): Promise<UnassignedRow> {
  await q.query(
    `UPDATE pix_unassigned SET amount_minor = $3
      WHERE workspace_id = $1 AND id = $2 AND status = 'unassigned' AND amount_minor < $3`,
    [row.workspace_id, row.id, received],
  );
  return { ...row, amount_minor: received };
}

/** The held PIX a refund of ours returns (its refund_id), locked. */
export async function lockUnassignedOfRefund(
  q: Queryable,
  workspaceId: string,
  refundId: string,
): Promise<UnassignedRow | undefined> {
  const { rows } = await q.query<UnassignedRow>(
    'SELECT * FROM pix_unassigned WHERE workspace_id = $1 AND refund_id = $2 FOR UPDATE',
    [workspaceId, refundId],
  );
  return rows[0];
}

/** A held PIX whose return failed: unassigned again, as it was received. */
export async function reopenUnassigned(q: Queryable, row: UnassignedRow): Promise<void> {
  await q.query(
    `UPDATE pix_unassigned SET status = 'unassigned', payment_id = NULL, refund_id = NULL, resolved_at = NULL
      WHERE workspace_id = $1 AND id = $2 AND status = 'returned'`,
    [row.workspace_id, row.id],
  );
}

export async function listUnassignedRows(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  filter: { status: string | null; cursor?: string; limit?: number },
): Promise<UnassignedRow[]> {
  const params: unknown[] = [scope.workspaceId, scope.environment, filter.status];
  const { rows } = await q.query<UnassignedRow>(
    `SELECT * FROM pix_unassigned WHERE workspace_id = $1 AND environment = $2 AND ($3::text IS NULL OR status = $3)
      ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

export async function resolveUnassigned(
  q: Queryable,
  row: UnassignedRow,
  to: { status: 'assigned' | 'returned'; paymentId: string; refundId: string | null; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE pix_unassigned SET status = $3, payment_id = $4, refund_id = $5, resolved_at = $6
      WHERE workspace_id = $1 AND id = $2 AND status = 'unassigned'`,
    [row.workspace_id, row.id, to.status, to.paymentId, to.refundId, to.at],
  );
}

export interface HeldReturnRow {
  return_id: string;
  rtr_id: string | null;
  natureza: MedNatureza;
  amount_minor: bigint;
}

/** Records a MED devolução on a held PIX; false when that devolução id was recorded already. */
export async function insertHeldReturn(
  q: Queryable,
  row: UnassignedRow,
  input: HeldReturnRow & { at: Date },
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO pix_unassigned_returns (workspace_id, unassigned_id, return_id, rtr_id, natureza, amount_minor, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING return_id`,
    [row.workspace_id, row.id, input.return_id, input.rtr_id, input.natureza, input.amount_minor, input.at],
  );
  return rows.length === 1;
}

/** The MED devoluções the PSP made while this PIX was held, oldest first. */
export async function heldReturnsOf(q: Queryable, row: UnassignedRow): Promise<HeldReturnRow[]> {
  const { rows } = await q.query<HeldReturnRow>(
    `SELECT return_id, rtr_id, natureza, amount_minor FROM pix_unassigned_returns
      WHERE workspace_id = $1 AND unassigned_id = $2 ORDER BY created_at, return_id`,
    [row.workspace_id, row.id],
  );
  return rows;
}

/** What the PSP returned of each of these held PIX while they were held, by held PIX id. */
export async function heldReturnedByRow(
  q: Queryable,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, bigint>> {
  const { rows } = await q.query<{ unassigned_id: string; returned: bigint }>(
    `SELECT unassigned_id, sum(amount_minor)::bigint AS returned FROM pix_unassigned_returns
      WHERE workspace_id = $1 AND unassigned_id = ANY($2::uuid[]) GROUP BY unassigned_id`,
    [workspaceId, [...ids]],
  );
  return new Map(rows.map((r) => [r.unassigned_id, r.returned]));
}
