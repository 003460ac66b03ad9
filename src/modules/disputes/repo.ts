/** The disputes module's SQL: the `disputes` table is its own (migration 0027). */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById } from '../../platform/pagination.ts';
import type { DeadlineNotice, DisputeStatus } from './schemas.ts';

export interface DisputeRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  party_id: string;
  payment_id: string;
  infraction_id: string;
  reason: string;
  amount_minor: bigint;
  held_minor: bigint;
  status: DisputeStatus;
  opened_at: Date;
  deadline_at: Date;
  defense_text: string | null;
  defense_evidence: string[] | null;
  defended_at: Date | null;
  closed_at: Date | null;
  return_payment_id: string | null;
  notices_sent: DeadlineNotice[];
  created_at: Date;
  updated_at: Date;
}

export interface Scope {
  workspaceId: string;
  environment: Environment;
}

export type NewDispute = Omit<
  DisputeRow,
  | 'defense_text'
  | 'defense_evidence'
  | 'defended_at'
  | 'closed_at'
  | 'return_payment_id'
  | 'notices_sent'
  | 'status'
>;

export async function insertDispute(q: Queryable, row: NewDispute): Promise<DisputeRow> {
  const { rows } = await q.query<DisputeRow>(
    `INSERT INTO disputes (workspace_id, id, environment, party_id, payment_id, infraction_id, reason, amount_minor,
                           held_minor, status, opened_at, deadline_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11, $12, $13) RETURNING *`,
    [
      row.workspace_id,
      row.id,
      row.environment,
      row.party_id,
      row.payment_id,
      row.infraction_id,
      row.reason,
      row.amount_minor,
      row.held_minor,
      row.opened_at,
      row.deadline_at,
      row.created_at,
      row.updated_at,
    ],
  );
  return rows[0]!;
}

/** A dispute of the scope (and of the party, for a party-scoped caller); locked when `forUpdate`. */
export async function findDispute(
  q: Queryable,
  scope: Scope & { partyId?: string | null },
  id: string,
  forUpdate = false,
): Promise<DisputeRow | undefined> {
  const { rows } = await q.query<DisputeRow>(
    `SELECT * FROM disputes WHERE workspace_id = $1 AND environment = $2 AND id = $3
        AND ($4::uuid IS NULL OR party_id = $4) ${forUpdate ? 'FOR UPDATE' : ''}`,
    [scope.workspaceId, scope.environment, id, scope.partyId ?? null],
  );
  return rows[0];
}

export async function findByInfraction(q: Queryable, scope: Scope, infractionId: string) {
  const { rows } = await q.query<DisputeRow>(
    'SELECT * FROM disputes WHERE workspace_id = $1 AND environment = $2 AND infraction_id = $3',
    [scope.workspaceId, scope.environment, infractionId],
  );
  return rows[0];
}

/** The payment's dispute still open or under review, if any. */
export async function findOpenOfPayment(q: Queryable, scope: Scope, paymentId: string) {
  const { rows } = await q.query<DisputeRow>(
    `SELECT * FROM disputes WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3
        AND status IN ('open', 'under_review')`,
    [scope.workspaceId, scope.environment, paymentId],
  );
  return rows[0];
}

export interface DisputeFilter extends Scope {
  partyId: string | null;
  status?: DisputeStatus;
  paymentId?: string;
  cursor?: string;
  limit?: number;
}

export async function listDisputeRows(q: Queryable, filter: DisputeFilter): Promise<DisputeRow[]> {
  const params: unknown[] = [
    filter.workspaceId,
    filter.environment,
    filter.partyId,
    filter.status ?? null,
    filter.paymentId ?? null,
  ];
  const { rows } = await q.query<DisputeRow>(
    `SELECT * FROM disputes WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
        AND ($4::text IS NULL OR status = $4) AND ($5::uuid IS NULL OR payment_id = $5)
        ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

export async function recordDefense(
  q: Queryable,
  row: DisputeRow,
  defense: { text: string; evidence: string[]; at: Date },
): Promise<DisputeRow> {
  const { rows } = await q.query<DisputeRow>(
    `UPDATE disputes SET status = 'under_review', defense_text = $3, defense_evidence = $4, defended_at = $5,
            updated_at = $5
      WHERE workspace_id = $1 AND id = $2 RETURNING *`,
    [row.workspace_id, row.id, defense.text, defense.evidence, defense.at],
  );
  return rows[0]!;
}

/** Marks an open dispute under review with no defense of its own: the PSP shows one (EM_DEFESA) we never recorded. */
export async function markUnderReview(
  q: Queryable,
  row: DisputeRow,
  at: Date,
): Promise<DisputeRow | undefined> {
  const { rows } = await q.query<DisputeRow>(
    `UPDATE disputes SET status = 'under_review', updated_at = $3
      WHERE workspace_id = $1 AND id = $2 AND status = 'open' RETURNING *`,
    [row.workspace_id, row.id, at],
  );
  return rows[0];
}

export async function recordClosed(
  q: Queryable,
  row: DisputeRow,
  closed: { status: 'closed_returned' | 'closed_rejected'; returnPaymentId: string | null; at: Date },
): Promise<DisputeRow> {
  const { rows } = await q.query<DisputeRow>(
    `UPDATE disputes SET status = $3, return_payment_id = $4, closed_at = $5, updated_at = $5
      WHERE workspace_id = $1 AND id = $2 RETURNING *`,
    [row.workspace_id, row.id, closed.status, closed.returnPaymentId, closed.at],
  );
  return rows[0]!;
}

/**
 * Open disputes of an environment (of one workspace, when given) that still have a notice to send,
 * whose deadline falls in (after, until], nearest deadline first, after `from` when given (a page).
 */
export async function disputesNearDeadline(
  q: Queryable,
  environment: Environment,
  window: { after: Date; until: Date; workspaceId?: string },
  limit: number,
  from?: { deadline: Date; id: string },
) {
  const { rows } = await q.query<DisputeRow>(
    `SELECT * FROM disputes WHERE status = 'open' AND environment = $1
        AND deadline_at > $2 AND deadline_at <= $3 AND ($4::uuid IS NULL OR workspace_id = $4)
        AND NOT (notices_sent @> ARRAY['48h', '24h', '6h'])
        AND ($6::timestamptz IS NULL OR (deadline_at, id) > ($6, $7::uuid))
      ORDER BY deadline_at, id LIMIT $5`,
    [
      environment,
      window.after,
      window.until,
      window.workspaceId ?? null,
      limit,
      from?.deadline ?? null,
      from?.id ?? null,
    ],
  );
  return rows;
}

/** Marks notices sent, only while the dispute is still open and had not sent them: true when it did now. */
export async function markNoticesSent(
  q: Queryable,
  row: DisputeRow,
  notices: readonly DeadlineNotice[],
  at: Date,
): Promise<DisputeRow | undefined> {
  const { rows } = await q.query<DisputeRow>(
    `UPDATE disputes SET notices_sent = (SELECT array_agg(DISTINCT n ORDER BY n) FROM unnest(notices_sent || $3::text[]) n),
            updated_at = $4
      WHERE workspace_id = $1 AND id = $2 AND status = 'open' AND NOT (notices_sent @> $3::text[])
      RETURNING *`,
    [row.workspace_id, row.id, notices, at],
  );
  return rows[0];
}

/** What the open disputes of a party hold in its locked BRL, and their ids. */
export async function heldByParty(q: Queryable, scope: Scope & { partyId: string }) {
  const { rows } = await q.query<{ held: bigint | null; ids: string[] | null }>(
    `SELECT sum(held_minor)::bigint AS held, array_agg(id::text ORDER BY id) AS ids FROM disputes
      WHERE workspace_id = $1 AND environment = $2 AND party_id = $3 AND status IN ('open', 'under_review')
        AND held_minor > 0`,
    [scope.workspaceId, scope.environment, scope.partyId],
  );
  return { held: rows[0]?.held ?? 0n, ids: rows[0]?.ids ?? [] };
}

/** Open disputes that hold less than their amount, by id after `after`: a page of the top-up sweep. */
export async function partlyHeld(q: Queryable, limit: number, after: string | null): Promise<DisputeRow[]> {
  const { rows } = await q.query<DisputeRow>(
    `SELECT * FROM disputes WHERE status IN ('open', 'under_review') AND held_minor < amount_minor
        AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $1`,
    [limit, after],
  );
  return rows;
}

/** Adds to what a dispute holds, only while it is still open and holds what the caller read. */
export async function addHeld(q: Queryable, row: DisputeRow, added: bigint, at: Date) {
  const { rows } = await q.query<DisputeRow>(
    `UPDATE disputes SET held_minor = held_minor + $4, updated_at = $5
      WHERE workspace_id = $1 AND id = $2 AND held_minor = $3 AND status IN ('open', 'under_review')
      RETURNING *`,
    [row.workspace_id, row.id, row.held_minor, added, at],
  );
  return rows[0];
}
