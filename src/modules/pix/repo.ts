/** SQL of the PIX module's own records of money the rail moved unasked: MED returns and unassigned PIX. */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById } from '../../platform/pagination.ts';

export interface MedReturnRow {
  workspace_id: string;
  payment_id: string;
  environment: Environment;
  party_id: string;
  charge_id: string;
  return_id: string;
  natureza: string;
  amount_minor: bigint;
  shortfall_minor: bigint;
  outstanding_minor: bigint;
  created_at: Date;
}

/** The MED return of a charge with the PSP's devolução id, when it was applied already. */
export async function findMedReturn(
  q: Queryable,
  workspaceId: string,
  chargeId: string,
  returnId: string,
): Promise<MedReturnRow | undefined> {
  const { rows } = await q.query<MedReturnRow>(
    'SELECT * FROM pix_med_returns WHERE workspace_id = $1 AND charge_id = $2 AND return_id = $3',
    [workspaceId, chargeId, returnId],
  );
  return rows[0];
}

export async function insertMedReturn(
  q: Queryable,
  row: Omit<MedReturnRow, 'created_at'> & { rtr_id: string | null; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO pix_med_returns (workspace_id, payment_id, environment, party_id, charge_id, return_id, rtr_id,
        natureza, amount_minor, shortfall_minor, outstanding_minor, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
    [
      row.workspace_id,
      row.payment_id,
      row.environment,
      row.party_id,
      row.charge_id,
      row.return_id,
      row.rtr_id,
      row.natureza,
      row.amount_minor,
      row.shortfall_minor,
      row.outstanding_minor,
      row.at,
    ],
  );
}

/** What a charge's refunds (completed or on their way) and MED returns have taken of it. */
export async function returnedOfCharge(
  q: Queryable,
  workspaceId: string,
  chargeId: string,
  refundStatuses: readonly string[],
): Promise<bigint> {
  const { rows } = await q.query<{ taken: bigint }>(
    `SELECT coalesce(sum(amount_minor), 0)::bigint AS taken FROM payments
      WHERE workspace_id = $1 AND related_payment_id = $2
        AND ((kind = 'pix_refund' AND status = ANY($3::text[])) OR kind = 'pix_med_return')`,
    [workspaceId, chargeId, [...refundStatuses]],
  );
  return rows[0]!.taken;
}

/** A party's MED returns it still owes part of, oldest first, locked until the transaction ends. */
export async function lockOwedReturns(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment; partyId: string },
): Promise<MedReturnRow[]> {
  const { rows } = await q.query<MedReturnRow>(
    `SELECT * FROM pix_med_returns
      WHERE workspace_id = $1 AND environment = $2 AND party_id = $3 AND outstanding_minor > 0
      ORDER BY created_at, payment_id FOR UPDATE`,
    [scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows;
}

export async function setOutstanding(
  q: Queryable,
  workspaceId: string,
  paymentId: string,
  outstanding: bigint,
  at: Date,
): Promise<void> {
  await q.query(
    'UPDATE pix_med_returns SET outstanding_minor = $3, updated_at = $4 WHERE workspace_id = $1 AND payment_id = $2',
    [workspaceId, paymentId, outstanding, at],
  );
}

/** What each party of the workspace (or one party) still owes, by party. */
export async function owedByParty(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  partyId: string | null,
): Promise<Map<string, bigint>> {
  const { rows } = await q.query<{ party_id: string; owed: bigint }>(
    `SELECT party_id, sum(outstanding_minor)::bigint AS owed FROM pix_med_returns
      WHERE workspace_id = $1 AND environment = $2 AND outstanding_minor > 0 AND ($3::uuid IS NULL OR party_id = $3)
      GROUP BY party_id`,
    [scope.workspaceId, scope.environment, partyId],
  );
  return new Map(rows.map((row) => [row.party_id, row.owed]));
}

/** Parties that owe something, a round at a time, for the recovery sweep. */
export async function partiesOwing(
  q: Queryable,
  after: string,
  limit: number,
): Promise<{ workspace_id: string; environment: Environment; party_id: string }[]> {
  const { rows } = await q.query<{ workspace_id: string; environment: Environment; party_id: string }>(
    `SELECT workspace_id, environment, party_id FROM (
       SELECT DISTINCT workspace_id, environment, party_id,
              (workspace_id::text || '|' || environment || '|' || party_id::text) COLLATE "C" AS key
         FROM pix_med_returns WHERE outstanding_minor > 0) owing
      WHERE key > $1 ORDER BY key LIMIT $2`,
    [after, limit],
  );
  return rows;
}

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

/**
 * What is still held of a PIX the PSP returned (part of) under MED: a smaller amount, or, all of it
 * returned, the row closed as returned with no refund of ours.
 */
export async function reduceUnassigned(
  q: Queryable,
  row: UnassignedRow,
  left: bigint,
  at: Date,
): Promise<void> {
  await q.query(
    left > 0n
      ? `UPDATE pix_unassigned SET amount_minor = $3 WHERE workspace_id = $1 AND id = $2 AND status = 'unassigned'`
      : `UPDATE pix_unassigned SET status = 'returned', resolved_at = $4
          WHERE workspace_id = $1 AND id = $2 AND status = 'unassigned' AND $3::bigint <= 0`,
    left > 0n ? [row.workspace_id, row.id, left] : [row.workspace_id, row.id, left, at],
  );
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
