/** SQL of the parties table (customers are its rows of kind person or business). */
import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../../platform/errors.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { DocumentType } from './documents.ts';
import type { CustomerStatus, KycStatus } from './schemas.ts';

export interface PartyRow {
  id: string;
  workspace_id: string;
  kind: 'entity' | 'person' | 'business';
  display_name: string;
  legal_name: string | null;
  document_type: DocumentType | null;
  document_number_sealed: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  status: CustomerStatus;
  kyc_status: KycStatus;
  sandbox_kyc_status: KycStatus;
  external_id: string | null;
  payout_mode: string | null;
  payout_asset: string | null;
  payout_wallet_address: string | null;
  payout_wallet_network: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const externalIdTaken = () =>
  new AppError('conflict', 'Another customer of this workspace already has this external_id.');

/** A unique violation can only be the external_id index here: the caller hears it as 409. */
async function translatingConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw externalIdTaken();
    throw error;
  }
}

export interface NewCustomer {
  id: string;
  workspaceId: string;
  kind: 'person' | 'business';
  displayName: string;
  legalName: string | null;
  documentType: DocumentType | null;
  documentSealed: string | null;
  documentHash: Buffer | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  searchText: string;
  at: Date;
}

export function insertCustomer(tx: Tx, c: NewCustomer): Promise<PartyRow> {
  return translatingConflict(async () => {
    const { rows } = await tx.query<PartyRow>(
      `INSERT INTO parties (id, workspace_id, kind, display_name, legal_name, document_type, document_number_sealed,
                            document_hash, email, phone, country, external_id, metadata, search_text, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING *`,
      [
        c.id,
        c.workspaceId,
        c.kind,
        c.displayName,
        c.legalName,
        c.documentType,
        c.documentSealed,
        c.documentHash,
        c.email,
        c.phone,
        c.country,
        c.externalId,
        JSON.stringify(c.metadata),
        c.searchText,
        c.at,
      ],
    );
    return rows[0]!;
  });
}

/** A customer (never the workspace's own entity party) of the workspace; optionally locked for an update. */
export async function findCustomer(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PartyRow | undefined> {
  const { rows } = await q.query<PartyRow>(
    `SELECT * FROM parties WHERE workspace_id = $1 AND id = $2 AND kind <> 'entity'${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id],
  );
  return rows[0];
}

/** Any party of the workspace (the entity party included), for KYC and the money checks. */
export async function findParty(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PartyRow | undefined> {
  const { rows } = await q.query<PartyRow>(
    `SELECT * FROM parties WHERE workspace_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId, id],
  );
  return rows[0];
}

export interface CustomerPatch {
  displayName: string;
  email: string | null;
  phone: string | null;
  status: CustomerStatus;
  externalId: string | null;
  metadata: Record<string, unknown>;
  searchText: string;
  at: Date;
}

export function updateCustomer(tx: Tx, workspaceId: string, id: string, p: CustomerPatch): Promise<PartyRow> {
  return translatingConflict(async () => {
    const { rows } = await tx.query<PartyRow>(
      `UPDATE parties SET display_name = $3, email = $4, phone = $5, status = $6, external_id = $7, metadata = $8,
              search_text = $9, updated_at = $10
        WHERE workspace_id = $1 AND id = $2 RETURNING *`,
      [
        workspaceId,
        id,
        p.displayName,
        p.email,
        p.phone,
        p.status,
        p.externalId,
        JSON.stringify(p.metadata),
        p.searchText,
        p.at,
      ],
    );
    return rows[0]!;
  });
}

export interface CustomerFilter {
  workspaceId: string;
  status?: CustomerStatus;
  /** Lower-case, accent-free text to find inside names, e-mail and external_id. */
  text?: string;
  /** The keyed hash of a document the search text is. */
  documentHash?: Buffer | null;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listCustomers(
  q: Queryable,
  filter: CustomerFilter,
  page: PageRequest,
): Promise<PartyRow[]> {
  const params: unknown[] = [
    filter.workspaceId,
    filter.status ?? null,
    filter.text === undefined ? null : likePattern(filter.text),
    filter.documentHash ?? null,
  ];
  const { rows } = await q.query<PartyRow>(
    `SELECT * FROM parties
      WHERE workspace_id = $1 AND kind <> 'entity' AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR search_text LIKE $3 OR ($4::bytea IS NOT NULL AND document_hash = $4))
        ${pageById(params, page)}`,
    params,
  );
  return rows;
}

/** The status column of an environment: kyc_status is live's (the payout gate's), sandbox has its own. */
export const kycColumn = (environment: Environment) =>
  environment === 'live' ? 'kyc_status' : 'sandbox_kyc_status';

export async function setKycStatus(
  tx: Tx,
  workspaceId: string,
  partyId: string,
  environment: Environment,
  status: KycStatus,
  at: Date,
): Promise<void> {
  await tx.query(
    `UPDATE parties SET ${kycColumn(environment)} = $3, updated_at = $4 WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, partyId, status, at],
  );
}
