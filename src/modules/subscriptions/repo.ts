/** The SQL of subscriptions and their cycles. */

import { returningColumns } from '../../db/returning.ts';
import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Frequency, RetryPolicy } from './schedule.ts';
import type { CycleStatus, SubscriptionStatus } from './schemas.ts';

export interface Scope {
  workspaceId: string;
  environment: Environment;
}

export interface SubscriptionRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  party_id: string;
  status: SubscriptionStatus;
  debtor_name: string;
  debtor_document: string;
  debtor_document_type: 'cpf' | 'cnpj';
  amount_minor: bigint | null;
  minimum_minor: bigint | null;
  frequency: Frequency;
  start_date: string;
  end_date: string | null;
  retry_policy: RetryPolicy;
  description: string | null;
  provider_ref: string | null;
  authorised_at: Date | null;
  cancelled_by: 'receiver' | 'payer' | null;
  metadata: Record<string, unknown>;
  failures_planned: number;
  next_amount_minor: bigint | null;
  payer_maximum_minor: bigint | null;
  created_at: Date;
  updated_at: Date;
}

export interface CycleRow {
  workspace_id: string;
  subscription_id: string;
  sequence: number;
  environment: Environment;
  payment_id: string | null;
  due_date: string;
  amount_minor: bigint;
  status: CycleStatus;
  txid: string | null;
  sent_at: Date | null;
  attempts: number;
  next_attempt_date: string | null;
  attempt_history: AttemptRecord[];
}

/** One payment attempt as it ended; a failed one with what the PSP said of it, when it said. */
export interface AttemptRecord {
  date: string;
  outcome: 'paid' | 'failed';
  rejection_code: string | null;
  rejection_reason: string | null;
}

export const rowScope = (row: { workspace_id: string; environment: Environment }): Scope => ({
  workspaceId: row.workspace_id,
  environment: row.environment,
});

// Dates leave the database as YYYY-MM-DD text, whatever the driver makes of a date column.
const SUBSCRIPTION_COLUMNS = `workspace_id, id, environment, party_id, status, debtor_name, debtor_document,
  debtor_document_type, amount_minor, minimum_minor, frequency, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, retry_policy, description, provider_ref, authorised_at,
  cancelled_by, metadata, failures_planned, next_amount_minor, payer_maximum_minor, created_at, updated_at`;
const CYCLE_COLUMNS = `workspace_id, subscription_id, sequence, environment, payment_id,
  to_char(due_date, 'YYYY-MM-DD') AS due_date, amount_minor, status, txid, sent_at, attempts,
  to_char(next_attempt_date, 'YYYY-MM-DD') AS next_attempt_date, attempt_history`;

export type NewSubscriptionRow = Omit<
  SubscriptionRow,
  'failures_planned' | 'next_amount_minor' | 'payer_maximum_minor'
>;

export async function insertSubscription(tx: Tx, row: NewSubscriptionRow) {
  const { rows } = await tx.query<SubscriptionRow>(
    returningColumns(
      `INSERT INTO subscriptions (workspace_id, id, environment, party_id, status, debtor_name, debtor_document,
       debtor_document_type, amount_minor, minimum_minor, frequency, start_date, end_date, retry_policy,
       description, provider_ref, authorised_at, cancelled_by, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
      SUBSCRIPTION_COLUMNS,
    ),
    [
      row.workspace_id,
      row.id,
      row.environment,
      row.party_id,
      row.status,
      row.debtor_name,
      row.debtor_document,
      row.debtor_document_type,
      row.amount_minor,
      row.minimum_minor,
      row.frequency,
      row.start_date,
      row.end_date,
      row.retry_policy,
      row.description,
      row.provider_ref,
      row.authorised_at,
      row.cancelled_by,
      JSON.stringify(row.metadata),
      row.created_at,
      row.updated_at,
    ],
  );
  return rows[0]!;
}

/** One subscription of the scope (and of `partyId` when a party-scoped caller asks); `lock` takes its row. */
export async function findSubscription(
  q: Queryable,
  scope: Scope,
  id: string,
  options: { partyId?: string | null; lock?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
      WHERE workspace_id = $1 AND environment = $2 AND id = $3 AND ($4::uuid IS NULL OR party_id = $4)
      ${options.lock ? 'FOR UPDATE' : ''}`,
    [scope.workspaceId, scope.environment, id, options.partyId ?? null],
  );
  return rows[0];
}

export async function listSubscriptionRows(
  q: Queryable,
  scope: Scope,
  filter: { partyId: string | null; status?: string },
  page: PageRequest,
): Promise<SubscriptionRow[]> {
  const params: unknown[] = [scope.workspaceId, scope.environment, filter.partyId, filter.status ?? null];
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
      WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
        AND ($4::text IS NULL OR status = $4) ${pageById(params, page)}`,
    params,
  );
  return rows;
}

/** Moves a subscription between statuses; the row as it now is. */
export async function setSubscriptionStatus(
  tx: Tx,
  scope: Scope,
  id: string,
  change: { to: SubscriptionStatus; at: Date; cancelledBy?: 'receiver' | 'payer'; authorised?: boolean },
): Promise<SubscriptionRow> {
  const { rows } = await tx.query<SubscriptionRow>(
    returningColumns(
      `UPDATE subscriptions SET status = $4, updated_at = $5, cancelled_by = COALESCE($6, cancelled_by),
            authorised_at = CASE WHEN $7 THEN $5 ELSE authorised_at END
      WHERE workspace_id = $1 AND environment = $2 AND id = $3`,
      SUBSCRIPTION_COLUMNS,
    ),
    [
      scope.workspaceId,
      scope.environment,
      id,
      change.to,
      change.at,
      change.cancelledBy ?? null,
      !!change.authorised,
    ],
  );
  return rows[0]!;
}

export async function setProviderRef(tx: Tx, scope: Scope, id: string, providerRef: string): Promise<void> {
  await tx.query(
    'UPDATE subscriptions SET provider_ref = $4 WHERE workspace_id = $1 AND environment = $2 AND id = $3',
    [scope.workspaceId, scope.environment, id, providerRef],
  );
}

/** Adds to the sandbox payer's planned failures. */
export async function planFailures(tx: Tx, scope: Scope, id: string, attempts: number): Promise<void> {
  await tx.query(
    `UPDATE subscriptions SET failures_planned = failures_planned + $4
      WHERE workspace_id = $1 AND environment = $2 AND id = $3`,
    [scope.workspaceId, scope.environment, id, attempts],
  );
}

/** Uses one planned failure when there is one: whether this attempt fails. */
export async function takePlannedFailure(tx: Tx, scope: Scope, id: string): Promise<boolean> {
  const { rows } = await tx.query(
    `UPDATE subscriptions SET failures_planned = failures_planned - 1
      WHERE workspace_id = $1 AND environment = $2 AND id = $3 AND failures_planned > 0 RETURNING id`,
    [scope.workspaceId, scope.environment, id],
  );
  return rows.length > 0;
}

/**
 * Subscriptions the cycle task may have work on, oldest first, after `afterId`: the open ones, and
 * ended ones with a cycle still open (a live cobr to withdraw, or to credit when it was paid).
 */
export async function openSubscriptions(
  q: Queryable,
  filter: { environment: Environment; workspaceId?: string; afterId: string | null; limit: number },
): Promise<SubscriptionRow[]> {
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions s
      WHERE environment = $1 AND ($2::uuid IS NULL OR workspace_id = $2) AND ($3::uuid IS NULL OR id > $3)
        AND (status IN ('pending_authorisation', 'active') OR EXISTS (
          SELECT 1 FROM subscription_cycles c WHERE c.workspace_id = s.workspace_id
             AND c.subscription_id = s.id AND c.status IN ('scheduled', 'retrying')))
      ORDER BY id LIMIT $4`,
    [filter.environment, filter.workspaceId ?? null, filter.afterId, filter.limit],
  );
  return rows;
}

export async function cyclesOf(q: Queryable, scope: Scope, subscriptionId: string): Promise<CycleRow[]> {
  const { rows } = await q.query<CycleRow>(
    `SELECT ${CYCLE_COLUMNS} FROM subscription_cycles
      WHERE workspace_id = $1 AND environment = $2 AND subscription_id = $3 ORDER BY sequence`,
    [scope.workspaceId, scope.environment, subscriptionId],
  );
  return rows;
}

/** Inserts a cycle unless it exists: the row when this call made it. */
export async function insertCycle(
  tx: Tx,
  row: Omit<CycleRow, 'attempt_history'>,
  at: Date,
): Promise<CycleRow | undefined> {
  const { rows } = await tx.query<CycleRow>(
    returningColumns(
      `INSERT INTO subscription_cycles (workspace_id, subscription_id, sequence, environment, payment_id, due_date,
       amount_minor, status, txid, sent_at, attempts, next_attempt_date, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
     ON CONFLICT DO NOTHING`,
      CYCLE_COLUMNS,
    ),
    [
      row.workspace_id,
      row.subscription_id,
      row.sequence,
      row.environment,
      row.payment_id,
      row.due_date,
      row.amount_minor,
      row.status,
      row.txid,
      row.sent_at,
      row.attempts,
      row.next_attempt_date,
      at,
    ],
  );
  return rows[0];
}

/** Moves a cycle on from the status it was read in; undefined when another run moved it first. */
export async function updateCycle(
  tx: Tx,
  cycle: CycleRow,
  change: {
    status: CycleStatus;
    attempts?: number;
    nextAttemptDate?: string | null;
    sentAt?: Date;
    attempt?: AttemptRecord;
  },
  at: Date,
): Promise<CycleRow | undefined> {
  const { rows } = await tx.query<CycleRow>(
    returningColumns(
      `UPDATE subscription_cycles
        SET status = $5, attempts = COALESCE($6, attempts), next_attempt_date = $7,
            sent_at = COALESCE($8, sent_at), updated_at = $9,
            attempt_history = attempt_history || COALESCE($12::jsonb, '[]'::jsonb)
      WHERE workspace_id = $1 AND subscription_id = $2 AND sequence = $3 AND status = $4
        AND attempts = $10 AND sent_at IS NOT DISTINCT FROM $11`,
      CYCLE_COLUMNS,
    ),
    [
      cycle.workspace_id,
      cycle.subscription_id,
      cycle.sequence,
      cycle.status,
      change.status,
      change.attempts ?? null,
      change.nextAttemptDate === undefined ? cycle.next_attempt_date : change.nextAttemptDate,
      change.sentAt ?? null,
      at,
      cycle.attempts,
      cycle.sent_at,
      change.attempt ? JSON.stringify([change.attempt]) : null,
    ],
  );
  return rows[0];
}

/** The amount the receiver set for the next cycle (null: the floor again); the row as it now is. */
export async function setNextAmount(
  tx: Tx,
  scope: Scope,
  id: string,
  change: { amountMinor: bigint | null; at: Date },
): Promise<SubscriptionRow> {
  const { rows } = await tx.query<SubscriptionRow>(
    returningColumns(
      `UPDATE subscriptions SET next_amount_minor = $4, updated_at = $5
      WHERE workspace_id = $1 AND environment = $2 AND id = $3`,
      SUBSCRIPTION_COLUMNS,
    ),
    [scope.workspaceId, scope.environment, id, change.amountMinor, change.at],
  );
  return rows[0]!;
}

/** The set amount is taken by the cycle just scheduled: the one after it charges the floor again. */
export async function takeNextAmount(tx: Tx, scope: Scope, id: string): Promise<void> {
  await tx.query(
    `UPDATE subscriptions SET next_amount_minor = NULL
      WHERE workspace_id = $1 AND environment = $2 AND id = $3`,
    [scope.workspaceId, scope.environment, id],
  );
}

/** The payer's maximum (valor.valorMaximo) when the PSP reports one. */
export async function setPayerMaximum(tx: Tx, scope: Scope, id: string, maximumMinor: bigint): Promise<void> {
  await tx.query(
    `UPDATE subscriptions SET payer_maximum_minor = $4
      WHERE workspace_id = $1 AND environment = $2 AND id = $3
        AND payer_maximum_minor IS DISTINCT FROM $4`,
    [scope.workspaceId, scope.environment, id, maximumMinor],
  );
}

/**
 * The live subscription a PSP notification names, by its recurrence's idRec or one of its cycles'
 * txid, in whichever workspace it is: the PSP's notification carries no workspace.
 */
export async function findLiveSubscriptionByPspRef(
  q: Queryable,
  ref: { idRec?: string; txid?: string },
): Promise<SubscriptionRow | undefined> {
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions s
      WHERE environment = 'live' AND (
        ($1::text IS NOT NULL AND provider_ref = $1) OR
        ($2::text IS NOT NULL AND EXISTS (
          SELECT 1 FROM subscription_cycles c WHERE c.workspace_id = s.workspace_id
             AND c.subscription_id = s.id AND c.environment = 'live' AND c.txid = $2)))
      LIMIT 1`,
    [ref.idRec ?? null, ref.txid ?? null],
  );
  return rows[0];
}
