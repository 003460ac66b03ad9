/** SQL of the terms of PIX charges with a due date (pix_due_charges); the payment is the payments module's. */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import type { DueTerms } from './due-amount.ts';

export interface DueChargeRow {
  workspace_id: string;
  payment_id: string;
  environment: Environment;
  due_date: string;
  days_valid_after_due: number;
  nominal_minor: bigint;
  debtor_name: string;
  debtor_document: string;
  debtor_document_type: 'cpf' | 'cnpj';
  terms: DueTerms;
  created_at: Date;
}

// due_date comes back as text, so no time zone ever shifts the day.
const COLUMNS = `workspace_id, payment_id, environment, to_char(due_date, 'YYYY-MM-DD') AS due_date,
  days_valid_after_due, nominal_minor, debtor_name, debtor_document, debtor_document_type, terms, created_at`;

export async function insertDueCharge(q: Queryable, row: DueChargeRow): Promise<void> {
  await q.query(
    `INSERT INTO pix_due_charges (workspace_id, payment_id, environment, due_date, days_valid_after_due,
        nominal_minor, debtor_name, debtor_document, debtor_document_type, terms, created_at)
     VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10, $11)`,
    [
      row.workspace_id,
      row.payment_id,
      row.environment,
      row.due_date,
      row.days_valid_after_due,
      row.nominal_minor,
      row.debtor_name,
      row.debtor_document,
      row.debtor_document_type,
      JSON.stringify(row.terms),
      row.created_at,
    ],
  );
}

export async function findDueCharge(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  paymentId: string,
): Promise<DueChargeRow | undefined> {
  const { rows } = await q.query<DueChargeRow>(
    `SELECT ${COLUMNS} FROM pix_due_charges WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3`,
    [scope.workspaceId, scope.environment, paymentId],
  );
  return rows[0];
}

/**
 * A workspace's unpaid sandbox due-date charges whose validity ended by `now` (its sandbox now).
 * Reads payments (the payments module's table) for their status and expires_at, as the charge
 * expiry sweep does.
 */
export async function sandboxDueChargesEnded(
  q: Queryable,
  workspaceId: string,
  now: Date,
): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT p.id FROM pix_due_charges d
       JOIN payments p ON p.workspace_id = d.workspace_id AND p.id = d.payment_id
      WHERE d.workspace_id = $1 AND d.environment = 'sandbox' AND p.status = 'created' AND p.expires_at <= $2
      ORDER BY p.expires_at LIMIT 100`,
    [workspaceId, now],
  );
  return rows.map((row) => row.id);
}

export interface LiveDueCharge {
  workspace_id: string;
  id: string;
  pix_txid: string;
  pix_qr_code: string | null;
  expires_at: Date | null;
}

/** Live due-date charges still waiting, after `cursor` in id order: for the poll that asks the PSP. */
export async function liveDueChargesWaiting(
  q: Queryable,
  cursor: string,
  limit: number,
): Promise<LiveDueCharge[]> {
  const { rows } = await q.query<LiveDueCharge>(
    `SELECT p.workspace_id, p.id, p.pix_txid, p.pix_qr_code, p.expires_at FROM pix_due_charges d
       JOIN payments p ON p.workspace_id = d.workspace_id AND p.id = d.payment_id
      WHERE d.environment = 'live' AND p.status = 'created' AND p.pix_txid IS NOT NULL AND p.id > $1
      ORDER BY p.id LIMIT $2`,
    [cursor, limit],
  );
  return rows;
}

/** Which of these payments are charges with a due date. */
export async function dueChargeIdsAmong(
  q: Queryable,
  payments: readonly { workspace_id: string; id: string }[],
): Promise<string[]> {
  if (payments.length === 0) return [];
  const { rows } = await q.query<{ payment_id: string }>(
    `SELECT d.payment_id FROM pix_due_charges d
       JOIN unnest($1::uuid[], $2::uuid[]) AS p(workspace_id, id)
         ON d.workspace_id = p.workspace_id AND d.payment_id = p.id`,
    [payments.map((p) => p.workspace_id), payments.map((p) => p.id)],
  );
  return rows.map((row) => row.payment_id);
}
