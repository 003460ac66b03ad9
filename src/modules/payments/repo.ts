import type { CarriedWrite, Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById } from '../../platform/pagination.ts';
import { notWaitingSql } from '../../platform/set-aside.ts';
import type { PaymentKind, PaymentStatus } from './schemas.ts';

/** Optional columns of a payment, named as on the wire (and in the table). */
export interface PaymentDetails {
  description?: string | null;
  provider_ref?: string | null;
  pix_qr_code?: string | null;
  pix_tx_id?: string | null;
  pix_txid?: string | null;
  pix_key?: string | null;
  to_address?: string | null;
  from_address?: string | null;
  network?: string | null;
  tx_hash?: string | null;
  failure_reason?: string | null;
  metadata?: Record<string, unknown>;
  idempotency_key?: string | null;
  counterparty?: Record<string, unknown> | null;
  wallet_id?: string | null;
  source_currency?: string | null;
  target_currency?: string | null;
  /** Decimal string, never a JS number. */
  exchange_rate?: string | null;
  quote_id?: string | null;
  related_payment_id?: string | null;
  expires_at?: Date | null;
}

export const DETAIL_COLUMNS = [
  'description',
  'provider_ref',
  'pix_qr_code',
  'pix_tx_id',
  'pix_txid',
  'pix_key',
  'to_address',
  'from_address',
  'network',
  'tx_hash',
  'failure_reason',
  'metadata',
  'idempotency_key',
  'counterparty',
  'wallet_id',
  'source_currency',
  'target_currency',
  'exchange_rate',
  'quote_id',
  'related_payment_id',
  'expires_at',
] as const satisfies readonly (keyof PaymentDetails)[];

const JSON_COLUMNS = new Set<string>(['metadata', 'counterparty']);

/** The columns every payment has. */
export interface PaymentCore {
  id: string;
  workspace_id: string;
  environment: Environment;
  party_id: string;
  kind: PaymentKind;
  status: PaymentStatus;
  amount_minor: bigint;
  currency: string;
  fee_minor: bigint;
  completed_at: Date | null;
  failed_at: Date | null;
}

export interface PaymentRow extends PaymentCore, Required<Omit<PaymentDetails, 'metadata'>> {
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** Where a payment is looked up: always inside one workspace and environment. */
export interface PaymentScope {
  workspaceId: string;
  environment: Environment;
  /** Set for a party-scoped caller: other parties' payments do not exist for it. */
  partyId?: string | null;
}

const detailValue = (column: string, value: unknown) =>
  value === undefined ? null : JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value;

/**
 * A payment's INSERT, not sent (the caller sends it, alone or carried by its event's statement), and
 * the row it makes: every column is given, so the row is what was sent, as the table keeps it.
 */
export function paymentInsert(
  row: PaymentCore & { at: Date },
  details: PaymentDetails,
): { write: CarriedWrite; row: PaymentRow } {
  const detailParams = DETAIL_COLUMNS.map((column) =>
    column === 'metadata' ? JSON.stringify(details.metadata ?? {}) : detailValue(column, details[column]),
  );
  const params = [
    row.id,
    row.workspace_id,
    row.environment,
    row.party_id,
    row.kind,
    row.status,
    row.amount_minor,
    row.currency,
    row.fee_minor,
    row.completed_at,
    row.failed_at,
    row.at,
    ...detailParams,
  ];
  const sent = (column: (typeof DETAIL_COLUMNS)[number]) =>
    detailParams[DETAIL_INDEX[column]] as string | null;
  return { write: { text: INSERT_PAYMENT, params }, row: storedRow(row, details, sent) };
}

/** Each detail column's place among the INSERT's detail parameters. */
const DETAIL_INDEX = Object.fromEntries(DETAIL_COLUMNS.map((column, i) => [column, i])) as Record<
  (typeof DETAIL_COLUMNS)[number],
  number
>;

const INSERT_PAYMENT = `INSERT INTO payments (id, workspace_id, environment, party_id, kind, status, amount_minor, currency,
                         fee_minor, completed_at, failed_at, created_at, ${DETAIL_COLUMNS.join(', ')}, updated_at)
   VALUES (${[...Array(12 + DETAIL_COLUMNS.length).keys()].map((i) => `$${i + 1}`).join(', ')}, $12)`;

/**
 * The row the INSERT makes, as the table returns it: uuids in lower case, JSON in jsonb's key order.
 * One literal with every column, so every row has the same shape (and a new column cannot be missed).
 */
function storedRow(
  row: PaymentCore & { at: Date },
  details: PaymentDetails,
  sent: (column: (typeof DETAIL_COLUMNS)[number]) => string | null,
): PaymentRow {
  const json = (text: string | null) => (text === null ? null : jsonbOrdered(JSON.parse(text)));
  const uuid = (value: string | null | undefined) => (value ? value.toLowerCase() : null);
  return {
    id: row.id.toLowerCase(),
    workspace_id: row.workspace_id.toLowerCase(),
    environment: row.environment,
    party_id: row.party_id.toLowerCase(),
    kind: row.kind,
    status: row.status,
    amount_minor: row.amount_minor,
    currency: row.currency,
    fee_minor: row.fee_minor,
    description: details.description ?? null,
    provider_ref: details.provider_ref ?? null,
    pix_qr_code: details.pix_qr_code ?? null,
    pix_tx_id: details.pix_tx_id ?? null,
    pix_txid: details.pix_txid ?? null,
    pix_key: details.pix_key ?? null,
    to_address: details.to_address ?? null,
    from_address: details.from_address ?? null,
    network: details.network ?? null,
    tx_hash: details.tx_hash ?? null,
    failure_reason: details.failure_reason ?? null,
    metadata: json(sent('metadata')) as Record<string, unknown>,
    idempotency_key: details.idempotency_key ?? null,
    counterparty: json(sent('counterparty')) as Record<string, unknown> | null,
    wallet_id: uuid(details.wallet_id),
    source_currency: details.source_currency ?? null,
    target_currency: details.target_currency ?? null,
    exchange_rate: details.exchange_rate ?? null,
    quote_id: uuid(details.quote_id),
    related_payment_id: uuid(details.related_payment_id),
    expires_at: details.expires_at ?? null,
    completed_at: row.completed_at,
    failed_at: row.failed_at,
    created_at: row.at,
    updated_at: row.at,
  };
}

/** A JSON value with its objects' keys in jsonb's order: shorter keys first, then byte by byte. */
export function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  const ordered: Record<string, unknown> = {};
  for (const key of keys) {
    // defineProperty: a key named __proto__ is a key like any other, as JSON.parse makes it.
    Object.defineProperty(ordered, key, {
      value: jsonbOrdered((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return ordered;
}

function jsonbKeyOrder(a: string, b: string): number {
  const byLength = Buffer.byteLength(a) - Buffer.byteLength(b);
  return byLength || Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export async function findPaymentRow(
  q: Queryable,
  scope: PaymentScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentRow | undefined> {
  const { rows } = await q.query<PaymentRow>(
    `SELECT * FROM payments WHERE id = $1 AND workspace_id = $2 AND environment = $3
        AND ($4::uuid IS NULL OR party_id = $4)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.workspaceId, scope.environment, scope.partyId ?? null],
  );
  return rows[0];
}

/** Sets the status when the current one is in `from`, plus the given details; undefined when it was not. */
export async function updatePaymentStatus(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  change: { to: PaymentStatus; from: readonly PaymentStatus[]; at: Date; details: PaymentDetails },
): Promise<PaymentRow | undefined> {
  const columns = DETAIL_COLUMNS.filter((column) => change.details[column] !== undefined);
  const sets = columns.map((column, i) => `${column} = $${i + 8}`);
  const { rows } = await tx.query<PaymentRow>(
    `UPDATE payments SET status = $4, updated_at = $6,
            completed_at = CASE WHEN $4 = 'completed' THEN $6 ELSE completed_at END,
            failed_at = CASE WHEN $4 = 'failed' THEN $6 ELSE failed_at END${sets.map((set) => `, ${set}`).join('')}
      WHERE id = $1 AND workspace_id = $2 AND environment = $3 AND status = ANY($5::text[])
        AND ($7::uuid IS NULL OR party_id = $7)
      RETURNING *`,
    [
      id,
      scope.workspaceId,
      scope.environment,
      change.to,
      change.from,
      change.at,
      scope.partyId ?? null,
      ...columns.map((column) => detailValue(column, change.details[column])),
    ],
  );
  return rows[0];
}

export interface PaymentListFilter {
  workspaceId: string;
  environment: Environment;
  partyId: string | null;
  status?: PaymentStatus;
  kind?: PaymentKind;
  /** A wallet's transactions: its sends and deposits. */
  walletId?: string;
  cursor?: string;
  limit: number;
}

/** Newest first: ids are UUIDv7, so id order is creation order. */
export async function listPaymentRows(q: Queryable, filter: PaymentListFilter): Promise<PaymentRow[]> {
  const params: unknown[] = [
    filter.workspaceId,
    filter.environment,
    filter.partyId,
    filter.status ?? null,
    filter.kind ?? null,
    filter.walletId ?? null,
  ];
  const { rows } = await q.query<PaymentRow>(
    `SELECT * FROM payments
      WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
        AND ($4::text IS NULL OR status = $4) AND ($5::text IS NULL OR kind = $5)
        AND ($6::uuid IS NULL OR wallet_id = $6) ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

/** An outgoing payment the reconciliation sweep looks at. */
export interface StaleTransferRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  status: PaymentStatus;
}

export interface StaleTransferFilter {
  kinds: readonly PaymentKind[];
  /** Only payments unchanged since before this. */
  updatedBefore: Date;
  /** A created payment counts once its send job was parked before this. */
  parkedBefore: Date;
  /** The sweep's set-aside source, and now: an item set aside waits for its retry. */
  setAsideSource: string;
  now: Date;
}

/** One status's share of the sweep's candidates (the jobs are asked apart: see findStaleTransfers). */
export interface StaleTransferQuery {
  kinds: readonly PaymentKind[];
  status: 'created' | 'processing';
  updatedBefore: Date;
  /** Ids set aside and waiting for their retry: left out. */
  waiting: readonly string[];
  limit: number;
}

/** Open payments of `kinds` in one status and unchanged since `updatedBefore`, oldest change first. */
export async function staleTransferRows(
  q: Queryable,
  query: StaleTransferQuery,
): Promise<(StaleTransferRow & { updated_at: Date })[]> {
  const { rows } = await q.query<StaleTransferRow & { updated_at: Date }>(
    `SELECT p.id, p.workspace_id, p.environment, p.status, p.updated_at FROM payments p
      WHERE p.kind = ANY($1) AND p.status = $2 AND p.updated_at < $3 AND ${notWaitingSql('p.id::text', '$4')}
      ORDER BY p.updated_at, p.id LIMIT $5`,
    [[...query.kinds], query.status, query.updatedBefore, [...query.waiting], query.limit],
  );
  return rows;
}

/** Of `ids` (payment ids as text), those of payments now in one of `statuses`. */
export async function paymentIdsIn(
  q: Queryable,
  ids: readonly string[],
  statuses: readonly PaymentStatus[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<{ id: string }>(
    'SELECT id::text AS id FROM payments WHERE id = ANY($1::uuid[]) AND status = ANY($2::text[])',
    [[...ids], [...statuses]],
  );
  return rows.map((row) => row.id);
}

/**
 * Sets the amount and fee of a charge still waiting: a due-date charge is paid what its terms ask on
 * the day (fine, interest, discount), which becomes the payment's amount as it is credited.
 */
export async function updateWaitingAmount(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  change: { amount: bigint; fee: bigint; at: Date },
): Promise<PaymentRow | undefined> {
  const { rows } = await tx.query<PaymentRow>(
    `UPDATE payments SET amount_minor = $4, fee_minor = $5, updated_at = $6
      WHERE id = $1 AND workspace_id = $2 AND environment = $3 AND status = 'created' RETURNING *`,
    [id, scope.workspaceId, scope.environment, change.amount, change.fee, change.at],
  );
  return rows[0];
}

/**
 * A waiting charge's revised terms (a due-date charge's PATCH): amount, fee, expiry and payer, only
 * while it is still created, so a revision never lands on a charge paid meanwhile.
 */
export async function updateWaitingTerms(
  tx: Tx,
  scope: PaymentScope,
  id: string,
  change: { amount: bigint; fee: bigint; expiresAt: Date; counterparty: Record<string, unknown>; at: Date },
): Promise<PaymentRow | undefined> {
  const { rows } = await tx.query<PaymentRow>(
    `UPDATE payments SET amount_minor = $4, fee_minor = $5, expires_at = $6, counterparty = $7, updated_at = $8
      WHERE id = $1 AND workspace_id = $2 AND environment = $3 AND status = 'created' RETURNING *`,
    [
      id,
      scope.workspaceId,
      scope.environment,
      change.amount,
      change.fee,
      change.expiresAt,
      JSON.stringify(change.counterparty),
      change.at,
    ],
  );
  return rows[0];
}

/**
 * The BR Code of a live charge recorded before its PSP had made one (a due-date charge of a lote
 * still being processed): written only where none is, so a second poll changes nothing.
 */
export async function fillMissingBrCode(
  q: Queryable,
  scope: { workspaceId: string; id: string },
  brCode: string,
  providerRef: string,
): Promise<void> {
  await q.query(
    `UPDATE payments SET pix_qr_code = $3, provider_ref = $4
      WHERE workspace_id = $1 AND id = $2 AND environment = 'live' AND pix_qr_code IS NULL`,
    [scope.workspaceId, scope.id, brCode, providerRef],
  );
}
