/** The links module's SQL: links, the global slug registry, splits and checkout records. */
import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { pageById, pageByTime, type TimeCursor } from '../../platform/pagination.ts';
import type { PaymentStatus } from '../payments/schemas.ts';
import type { PaymentRow } from '../payments/service.ts';
import type { DesignView } from './schemas.ts';
import type { Share } from './split-math.ts';

export interface LinkScope {
  workspaceId: string;
  environment: Environment;
  /** Set for a party-scoped caller: other parties' links do not exist for it. */
  partyId?: string | null;
}

export interface LinkRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  party_id: string;
  amount_minor: bigint | null;
  currency: string;
  allow_custom_amount: boolean;
  status: 'active' | 'inactive';
  slug: string;
  title: string | null;
  description: string | null;
  design: DesignView;
  expires_at: Date | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** Claims a slug for every workspace and environment at once; false when someone holds it. */
export async function claimSlug(
  tx: Tx,
  slug: string,
  owner: { workspaceId: string; environment: Environment; linkId: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO payment_link_slugs (slug, workspace_id, environment, payment_link_id, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (slug) DO NOTHING`,
    [slug, owner.workspaceId, owner.environment, owner.linkId, owner.at],
  );
  return rowCount === 1;
}

export async function insertLink(tx: Tx, row: Omit<LinkRow, 'updated_at'>): Promise<LinkRow> {
  const { rows } = await tx.query<LinkRow>(
    `INSERT INTO payment_links (workspace_id, id, environment, party_id, amount_minor, currency, allow_custom_amount,
                                status, slug, title, description, design, expires_at, metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING *`,
    [
      row.workspace_id,
      row.id,
      row.environment,
      row.party_id,
      row.amount_minor,
      row.currency,
      row.allow_custom_amount,
      row.status,
      row.slug,
      row.title,
      row.description,
      JSON.stringify(row.design),
      row.expires_at,
      JSON.stringify(row.metadata),
      row.created_at,
    ],
  );
  return rows[0]!;
}

/**
 * A link of the scope. `lock`: 'update' while its splits or fields change, 'share' while a checkout
 * copies its splits, so a checkout sees the split set before or after a replacement, never half of it.
 */
export async function findLink(
  q: Queryable,
  scope: LinkScope,
  id: string,
  lock?: 'update' | 'share',
): Promise<LinkRow | undefined> {
  const { rows } = await q.query<LinkRow>(
    `SELECT * FROM payment_links WHERE workspace_id = $1 AND environment = $2 AND id = $3
        AND ($4::uuid IS NULL OR party_id = $4)${lock ? ` FOR ${lock.toUpperCase()}` : ''}`,
    [scope.workspaceId, scope.environment, id, scope.partyId ?? null],
  );
  return rows[0];
}

/** The link a slug names, in whichever workspace and environment holds it. */
export async function findLinkBySlug(q: Queryable, slug: string): Promise<LinkRow | undefined> {
  // Two reads, not a join: the slug registry is on every node of a distributed database, the link on
  // its workspace's shard alone, and only a read that names the workspace goes to one shard.
  const { rows: slugs } = await q.query<{ workspace_id: string; payment_link_id: string }>(
    'SELECT workspace_id, payment_link_id FROM payment_link_slugs WHERE slug = $1',
    [slug],
  );
  if (!slugs[0]) return undefined;
  const { rows } = await q.query<LinkRow>('SELECT * FROM payment_links WHERE workspace_id = $1 AND id = $2', [
    slugs[0].workspace_id,
    slugs[0].payment_link_id,
  ]);
  return rows[0];
}

export async function listLinkRows(
  q: Queryable,
  filter: LinkScope & { limit?: number; cursor?: string },
): Promise<LinkRow[]> {
  const params: unknown[] = [filter.workspaceId, filter.environment, filter.partyId ?? null];
  const { rows } = await q.query<LinkRow>(
    `SELECT * FROM payment_links WHERE workspace_id = $1 AND environment = $2
        AND ($3::uuid IS NULL OR party_id = $3) ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

export interface LinkPatch {
  title?: string;
  description?: string;
  allow_custom_amount?: boolean;
  design?: DesignView;
  status?: 'active' | 'inactive';
}

export async function updateLinkRow(tx: Tx, link: LinkRow, patch: LinkPatch, at: Date): Promise<LinkRow> {
  const { rows } = await tx.query<LinkRow>(
    `UPDATE payment_links SET title = $3, description = $4, allow_custom_amount = $5, design = $6, status = $7,
            updated_at = $8
      WHERE workspace_id = $1 AND id = $2 RETURNING *`,
    [
      link.workspace_id,
      link.id,
      patch.title ?? link.title,
      patch.description ?? link.description,
      patch.allow_custom_amount ?? link.allow_custom_amount,
      JSON.stringify(patch.design ?? link.design),
      patch.status ?? link.status,
      at,
    ],
  );
  return rows[0]!;
}

export interface SplitRow {
  id: string;
  payment_link_id: string;
  party_id: string;
  recipient_label: string | null;
  share_bps: number;
}

export async function listSplitRows(q: Queryable, workspaceId: string, linkId: string): Promise<SplitRow[]> {
  const { rows } = await q.query<SplitRow>(
    `SELECT id, payment_link_id, party_id, recipient_label, share_bps FROM payment_link_splits
      WHERE workspace_id = $1 AND payment_link_id = $2 ORDER BY position`,
    [workspaceId, linkId],
  );
  return rows;
}

/** Replaces the whole split set of a link (the caller holds the link's row lock). */
export async function replaceSplitRows(tx: Tx, workspaceId: string, linkId: string, splits: SplitRow[]) {
  await tx.query('DELETE FROM payment_link_splits WHERE workspace_id = $1 AND payment_link_id = $2', [
    workspaceId,
    linkId,
  ]);
  if (splits.length === 0) return;
  await tx.query(
    `INSERT INTO payment_link_splits (workspace_id, id, payment_link_id, party_id, recipient_label, share_bps, position)
     SELECT $1, s.id, $2, s.party_id, s.recipient_label, s.share_bps, s.position
       FROM jsonb_to_recordset($3::jsonb)
         AS s(id uuid, party_id uuid, recipient_label text, share_bps integer, position integer)`,
    [workspaceId, linkId, JSON.stringify(splits.map((split, position) => ({ ...split, position })))],
  );
}

export interface FrozenSplit extends Share {
  recipient_label: string | null;
}

export interface CheckoutRow {
  workspace_id: string;
  payment_id: string;
  environment: Environment;
  payment_link_id: string;
  splits: FrozenSplit[];
  payer_name: string;
  payer_document_sealed: string;
  payer_document_hash: Buffer;
  created_at: Date;
}

export async function insertCheckout(tx: Tx, row: CheckoutRow): Promise<void> {
  await tx.query(
    `INSERT INTO payment_link_payments (workspace_id, payment_id, environment, payment_link_id, splits, payer_name,
                                        payer_document_sealed, payer_document_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.workspace_id,
      row.payment_id,
      row.environment,
      row.payment_link_id,
      JSON.stringify(row.splits),
      row.payer_name,
      row.payer_document_sealed,
      row.payer_document_hash,
      row.created_at,
    ],
  );
}

export async function findCheckout(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  paymentId: string,
): Promise<CheckoutRow | undefined> {
  const { rows } = await q.query<CheckoutRow>(
    'SELECT * FROM payment_link_payments WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3',
    [scope.workspaceId, scope.environment, paymentId],
  );
  return rows[0];
}

/**
 * Folding for accent-insensitive search with translate() (PGlite has no unaccent). The same table
 * folds the search text in TypeScript, so both sides are folded alike.
 */
export const ACCENTED = 'áàâãäåçéèêëíìîïñóòôõöúùûüýÿÁÀÂÃÄÅÇÉÈÊËÍÌÎÏÑÓÒÔÕÖÚÙÛÜÝ';
export const UNACCENTED = 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUY';

export interface CheckoutFilter extends LinkScope {
  status?: PaymentStatus;
  paymentLinkId?: string;
  /** The keyed hash of the document searched for. */
  documentHash?: Buffer;
  /** Folded, lower-case text to find inside the payer name. */
  nameText?: string;
  after?: TimeCursor;
  limit: number;
}

/**
 * Checkout payments, newest first by (created_at, id). It reads the payments table joined to its own:
 * the checkout list is a list of payments narrowed by checkout fields, and a join is the one way to
 * page and filter by both at once. It only reads payments; the payments module stays their only writer.
 */
export async function listCheckoutRows(
  q: Queryable,
  filter: CheckoutFilter,
): Promise<(PaymentRow & { payment_link_id: string })[]> {
  const params: unknown[] = [
    filter.workspaceId,
    filter.environment,
    filter.partyId ?? null,
    filter.status ?? null,
    filter.paymentLinkId ?? null,
    filter.documentHash ?? null,
    filter.nameText === undefined ? null : `%${filter.nameText.replace(/[\\%_]/g, '\\$&')}%`,
    ACCENTED,
    UNACCENTED,
  ];
  const { rows } = await q.query<PaymentRow & { payment_link_id: string }>(
    `SELECT p.*, c.payment_link_id FROM payment_link_payments c
       JOIN payments p ON p.id = c.payment_id AND p.workspace_id = c.workspace_id
      WHERE c.workspace_id = $1 AND c.environment = $2 AND ($3::uuid IS NULL OR p.party_id = $3)
        AND ($4::text IS NULL OR p.status = $4) AND ($5::uuid IS NULL OR c.payment_link_id = $5)
        AND ($6::bytea IS NULL OR c.payer_document_hash = $6)
        AND ($7::text IS NULL OR lower(translate(c.payer_name, $8, $9)) LIKE $7)
        ${pageByTime(params, filter.after, filter.limit, { time: 'c.created_at', id: 'c.payment_id' })}`,
    params,
  );
  return rows;
}
