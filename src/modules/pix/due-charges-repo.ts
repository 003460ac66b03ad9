/** SQL of the terms of PIX charges with a due date (pix_due_charges); the payment is the payments module's. */

import { returningColumns } from '../../db/returning.ts';
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById } from '../../platform/pagination.ts';
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
  /** How many times it was revised (cobv.revisao); 0 until then. */
  revision?: number;
  /** When the receiver cancelled it (cobv REMOVIDA_PELO_USUARIO_RECEBEDOR); null while it stands. */
  cancelled_at?: Date | null;
}

// due_date comes back as text, so no time zone ever shifts the day.
const COLUMNS = `workspace_id, payment_id, environment, to_char(due_date, 'YYYY-MM-DD') AS due_date,
  days_valid_after_due, nominal_minor, debtor_name, debtor_document, debtor_document_type, terms, created_at, revision, cancelled_at`;

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
  /** Ids set aside and not yet due for a retry: left out, so they never fill the round. */
  skip: readonly string[] = [],
): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT p.id FROM pix_due_charges d
       JOIN payments p ON p.workspace_id = d.workspace_id AND p.id = d.payment_id
      WHERE d.workspace_id = $1 AND d.environment = 'sandbox' AND p.status = 'created' AND p.expires_at <= $2
        AND NOT (p.id::text = ANY($3::text[]))
      ORDER BY p.expires_at LIMIT 100`,
    [workspaceId, now, skip],
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

type DueScope = { workspaceId: string; environment: Environment };

/** The revisable fields of a charge, as PATCH /cobv/{txid} revises them. */
export type DueRevision = Pick<
  DueChargeRow,
  | 'due_date'
  | 'days_valid_after_due'
  | 'nominal_minor'
  | 'debtor_name'
  | 'debtor_document'
  | 'debtor_document_type'
  | 'terms'
>;

/** Revises a charge still standing (revision + 1); undefined when it was cancelled meanwhile. */
export async function reviseDueChargeRow(
  q: Queryable,
  scope: DueScope,
  paymentId: string,
  change: DueRevision & { at: Date },
): Promise<DueChargeRow | undefined> {
  const { rows } = await q.query<DueChargeRow>(
    returningColumns(
      `UPDATE pix_due_charges SET due_date = $4::date, days_valid_after_due = $5, nominal_minor = $6,
        debtor_name = $7, debtor_document = $8, debtor_document_type = $9, terms = $10,
        revision = revision + 1, updated_at = $11
      WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3 AND cancelled_at IS NULL`,
      COLUMNS,
    ),
    [
      scope.workspaceId,
      scope.environment,
      paymentId,
      change.due_date,
      change.days_valid_after_due,
      change.nominal_minor,
      change.debtor_name,
      change.debtor_document,
      change.debtor_document_type,
      JSON.stringify(change.terms),
      change.at,
    ],
  );
  return rows[0];
}

/** Marks a charge cancelled (revision + 1); undefined when it was cancelled already. */
export async function cancelDueChargeRow(
  q: Queryable,
  scope: DueScope,
  paymentId: string,
  at: Date,
): Promise<DueChargeRow | undefined> {
  const { rows } = await q.query<DueChargeRow>(
    returningColumns(
      `UPDATE pix_due_charges SET cancelled_at = $4, revision = revision + 1, updated_at = $4
      WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3 AND cancelled_at IS NULL`,
      COLUMNS,
    ),
    [scope.workspaceId, scope.environment, paymentId, at],
  );
  return rows[0];
}

export interface DueChargeListFilter extends DueScope {
  partyId: string | null;
  /** A payment status, or cancelled (an expired payment whose charge was cancelled). */
  status?: string;
  dueFrom?: string;
  dueBefore?: string;
  limit?: number;
  cursor?: string;
}

/**
 * A page of charges with their payments, newest first. Reads payments (the payments module's table)
 * for the status and party the list filters on, as the sweeps above do; each row is the payment's
 * columns with the charge's beside them under d_ names.
 */
export async function listDueChargeRows(q: Queryable, filter: DueChargeListFilter) {
  const cancelled = filter.status === 'cancelled';
  const params: unknown[] = [
    filter.workspaceId,
    filter.environment,
    filter.partyId,
    cancelled ? null : (filter.status ?? null),
    cancelled,
    filter.dueFrom ?? null,
    filter.dueBefore ?? null,
  ];
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT p.*, to_char(d.due_date, 'YYYY-MM-DD') AS d_due_date, d.days_valid_after_due AS d_days_valid_after_due,
        d.nominal_minor AS d_nominal_minor, d.debtor_name AS d_debtor_name, d.debtor_document AS d_debtor_document,
        d.debtor_document_type AS d_debtor_document_type, d.terms AS d_terms, d.created_at AS d_created_at,
        d.revision AS d_revision, d.cancelled_at AS d_cancelled_at
       FROM pix_due_charges d
       JOIN payments p ON p.workspace_id = d.workspace_id AND p.id = d.payment_id
      WHERE d.workspace_id = $1 AND d.environment = $2 AND ($3::uuid IS NULL OR p.party_id = $3)
        AND ($4::text IS NULL OR (p.status = $4 AND d.cancelled_at IS NULL))
        AND (NOT $5::boolean OR d.cancelled_at IS NOT NULL)
        AND ($6::date IS NULL OR d.due_date >= $6::date) AND ($7::date IS NULL OR d.due_date < $7::date)
        ${pageById(params, filter, 'd.payment_id')}`,
    params,
  );
  return rows.map((row) => ({
    payment: row,
    charge: {
      workspace_id: row.workspace_id,
      payment_id: row.id,
      environment: row.environment,
      due_date: row.d_due_date,
      days_valid_after_due: row.d_days_valid_after_due,
      nominal_minor: row.d_nominal_minor,
      debtor_name: row.d_debtor_name,
      debtor_document: row.d_debtor_document,
      debtor_document_type: row.d_debtor_document_type,
      terms: row.d_terms,
      created_at: row.d_created_at,
      revision: row.d_revision,
      cancelled_at: row.d_cancelled_at,
    } as DueChargeRow,
  }));
}

/** Whether this live payment is a due-date charge its receiver cancelled. */
export async function isCancelledDueCharge(
  q: Queryable,
  payment: { workspace_id: string; id: string },
): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM pix_due_charges
      WHERE workspace_id = $1 AND payment_id = $2 AND environment = 'live' AND cancelled_at IS NOT NULL`,
    [payment.workspace_id, payment.id],
  );
  return rows.length === 1;
}
