/** SQL of KYC cases and their RFI items. */
import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { CaseStatus } from './schemas.ts';

export interface CaseRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  party_id: string;
  status: CaseStatus;
  decision_reason: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RfiRow {
  id: string;
  workspace_id: string;
  kyc_case_id: string;
  field_name: string;
  description: string;
  status: 'open' | 'answered' | 'closed';
  answer_sealed: string | null;
  answered_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
}

export interface CaseScope {
  workspaceId: string;
  environment: Environment;
  /** A party-scoped caller's party: cases of other parties are not there for it. */
  partyId: string | null;
}

/** Inserts a pending case; undefined when the party already has an undecided case in the environment. */
export async function insertCase(
  tx: Tx,
  c: { id: string; workspaceId: string; environment: Environment; partyId: string; at: Date },
): Promise<CaseRow | undefined> {
  const { rows } = await tx.query<CaseRow>(
    `INSERT INTO kyc_cases (id, workspace_id, environment, party_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (workspace_id, environment, party_id) WHERE status IN ('pending', 'in_review') DO NOTHING
     RETURNING *`,
    [c.id, c.workspaceId, c.environment, c.partyId, c.at],
  );
  return rows[0];
}

export async function findCase(
  q: Queryable,
  scope: CaseScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CaseRow | undefined> {
  const { rows } = await q.query<CaseRow>(
    `SELECT * FROM kyc_cases WHERE id = $1 AND workspace_id = $2 AND environment = $3
        AND ($4::uuid IS NULL OR party_id = $4)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows[0];
}

/** A case by id alone: for the operator's CLI, which stands above every workspace. */
export async function findCaseAnywhere(q: Queryable, id: string): Promise<CaseRow | undefined> {
  const { rows } = await q.query<CaseRow>('SELECT * FROM kyc_cases WHERE id = $1', [id]);
  return rows[0];
}

export async function listCases(
  q: Queryable,
  scope: CaseScope,
  partyId: string | null,
  page: PageRequest,
): Promise<CaseRow[]> {
  const params: unknown[] = [scope.workspaceId, scope.environment, partyId ?? scope.partyId];
  const { rows } = await q.query<CaseRow>(
    `SELECT * FROM kyc_cases WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
      ${pageById(params, page)}`,
    params,
  );
  return rows;
}

export async function updateCase(
  tx: Tx,
  row: Pick<CaseRow, 'workspace_id' | 'id'>,
  patch: { status: CaseStatus; reason?: string | null; decidedAt?: Date | null; at: Date },
): Promise<CaseRow> {
  const { rows } = await tx.query<CaseRow>(
    `UPDATE kyc_cases SET status = $3, decision_reason = coalesce($4, decision_reason),
            decided_at = coalesce($5, decided_at), updated_at = $6
      WHERE workspace_id = $1 AND id = $2 RETURNING *`,
    [row.workspace_id, row.id, patch.status, patch.reason ?? null, patch.decidedAt ?? null, patch.at],
  );
  return rows[0]!;
}

export async function insertRfi(
  tx: Tx,
  r: { id: string; workspaceId: string; caseId: string; fieldName: string; description: string; at: Date },
): Promise<RfiRow> {
  const { rows } = await tx.query<RfiRow>(
    `INSERT INTO kyc_rfi_items (id, workspace_id, kyc_case_id, field_name, description, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [r.id, r.workspaceId, r.caseId, r.fieldName, r.description, r.at],
  );
  return rows[0]!;
}

export async function listRfis(q: Queryable, workspaceId: string, caseId: string, page: PageRequest) {
  const params: unknown[] = [workspaceId, caseId];
  const { rows } = await q.query<RfiRow>(
    `SELECT * FROM kyc_rfi_items WHERE workspace_id = $1 AND kyc_case_id = $2 ${pageById(params, page)}`,
    params,
  );
  return rows;
}

export async function findRfi(tx: Tx, workspaceId: string, caseId: string, id: string) {
  const { rows } = await tx.query<RfiRow>(
    'SELECT * FROM kyc_rfi_items WHERE workspace_id = $1 AND kyc_case_id = $2 AND id = $3 FOR UPDATE',
    [workspaceId, caseId, id],
  );
  return rows[0];
}

export async function answerRfi(
  tx: Tx,
  rfi: Pick<RfiRow, 'workspace_id' | 'id'>,
  answerSealed: string,
  at: Date,
): Promise<RfiRow> {
  const { rows } = await tx.query<RfiRow>(
    `UPDATE kyc_rfi_items SET status = 'answered', answer_sealed = $3, answered_at = $4
      WHERE workspace_id = $1 AND id = $2 RETURNING *`,
    [rfi.workspace_id, rfi.id, answerSealed, at],
  );
  return rows[0]!;
}

export async function countOpenRfis(tx: Tx, workspaceId: string, caseId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM kyc_rfi_items WHERE workspace_id = $1 AND kyc_case_id = $2 AND status = 'open'`,
    [workspaceId, caseId],
  );
  return rows[0]!.n;
}

/** A decided case closes every item it asked. */
export async function closeRfis(tx: Tx, workspaceId: string, caseId: string, at: Date): Promise<void> {
  await tx.query(
    `UPDATE kyc_rfi_items SET status = 'closed', closed_at = $3
      WHERE workspace_id = $1 AND kyc_case_id = $2 AND status <> 'closed'`,
    [workspaceId, caseId, at],
  );
}
