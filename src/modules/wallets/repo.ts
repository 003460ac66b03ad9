import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';

export interface WalletRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  party_id: string;
  network: string;
  address: string;
  wallet_name: string | null;
  is_primary: boolean;
  provider_ref: string | null;
  created_at: Date;
}

export interface WalletScope {
  workspaceId: string;
  environment: Environment;
  /** A party-scoped caller sees only its party's wallets. */
  partyId: string | null;
}

export interface NewWalletRow {
  id: string;
  network: string;
  is_primary: boolean;
}

/**
 * Inserts one wallet per network (same address and key), all or none: a row that exists already
 * (the address registered on one of the networks) makes it answer the networks that clashed.
 */
export async function insertWallets(
  tx: Tx,
  scope: { workspaceId: string; environment: Environment; partyId: string },
  wallet: { address: string; walletName: string | null; providerRef: string | null; at: Date },
  rows: readonly NewWalletRow[],
): Promise<{ inserted: WalletRow[]; clashes: string[] }> {
  const { rows: clashing } = await tx.query<{ network: string }>(
    `SELECT network FROM wallets WHERE workspace_id = $1 AND environment = $2 AND address = $3 AND network = ANY($4)`,
    [scope.workspaceId, scope.environment, wallet.address, rows.map((row) => row.network)],
  );
  if (clashing.length > 0) return { inserted: [], clashes: clashing.map((row) => row.network) };
  const { rows: inserted } = await tx.query<WalletRow>(
    `INSERT INTO wallets (id, workspace_id, environment, party_id, network, address, wallet_name, is_primary, provider_ref, created_at)
     SELECT u.id, $1, $2, $3, u.network, $4, $5, u.is_primary, $6, $7
       FROM unnest($8::uuid[], $9::text[], $10::boolean[]) AS u (id, network, is_primary)
     RETURNING *`,
    [
      scope.workspaceId,
      scope.environment,
      scope.partyId,
      wallet.address,
      wallet.walletName,
      wallet.providerRef,
      wallet.at,
      rows.map((row) => row.id),
      rows.map((row) => row.network),
      rows.map((row) => row.is_primary),
    ],
  );
  return { inserted, clashes: [] };
}

/** Demotes the party's primary wallet on a network, so a new one can take its place. */
export async function clearPrimary(
  tx: Tx,
  scope: { workspaceId: string; environment: Environment; partyId: string },
  network: string,
): Promise<void> {
  await tx.query(
    `UPDATE wallets SET is_primary = false
      WHERE workspace_id = $1 AND environment = $2 AND party_id = $3 AND network = $4 AND is_primary`,
    [scope.workspaceId, scope.environment, scope.partyId, network],
  );
}

export async function findWalletRow(q: Queryable, scope: WalletScope, id: string) {
  const { rows } = await q.query<WalletRow>(
    `SELECT * FROM wallets WHERE id = $1 AND workspace_id = $2 AND environment = $3
        AND ($4::uuid IS NULL OR party_id = $4)`,
    [id, scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows[0];
}

export async function listWalletRows(
  q: Queryable,
  scope: WalletScope,
  filter: { network?: string } & PageRequest,
): Promise<WalletRow[]> {
  const params: unknown[] = [scope.workspaceId, scope.environment, scope.partyId, filter.network ?? null];
  const { rows } = await q.query<WalletRow>(
    `SELECT * FROM wallets WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
        AND ($4::text IS NULL OR network = $4) ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

/** A party's wallets on one network, primary first, then oldest first. */
export async function partyWalletsOn(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment; partyId: string },
  network: string,
): Promise<WalletRow[]> {
  const { rows } = await q.query<WalletRow>(
    `SELECT * FROM wallets WHERE workspace_id = $1 AND environment = $2 AND party_id = $3 AND network = $4
      ORDER BY is_primary DESC, id`,
    [scope.workspaceId, scope.environment, scope.partyId, network],
  );
  return rows;
}

/**
 * The wallet whose key Lastro holds at this address on this network: in any workspace for what the
 * chain brings (the watcher), in `workspaceId` alone when the caller knows it (one shard on Citus).
 */
export async function findCustodialWalletRow(
  q: Queryable,
  environment: Environment,
  network: string,
  address: string,
  workspaceId: string | null = null,
): Promise<WalletRow | undefined> {
  const custodial = 'environment = $1 AND network = $2 AND address = $3 AND provider_ref IS NOT NULL';
  const { rows } = workspaceId
    ? await q.query<WalletRow>(`SELECT * FROM wallets WHERE workspace_id = $4 AND ${custodial}`, [
        environment,
        network,
        address,
        workspaceId,
      ])
    : await q.query<WalletRow>(`SELECT * FROM wallets WHERE ${custodial}`, [environment, network, address]);
  return rows[0];
}

/** Every custodial (network, address) of an environment: what the deposit watcher asks the chain about. */
export async function custodialAddresses(
  q: Queryable,
  environment: Environment,
): Promise<{ network: string; address: string }[]> {
  const { rows } = await q.query<{ network: string; address: string }>(
    'SELECT network, address FROM wallets WHERE environment = $1 AND provider_ref IS NOT NULL ORDER BY id',
    [environment],
  );
  return rows;
}

export interface WhitelistRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  network: string;
  address: string;
  label: string | null;
  created_by: string | null;
  created_at: Date;
}

type Tenant = { workspaceId: string; environment: Environment };

export async function insertWhitelistRow(
  tx: Tx,
  scope: Tenant,
  entry: {
    id: string;
    network: string;
    address: string;
    label: string | null;
    createdBy: string | null;
    at: Date;
  },
): Promise<WhitelistRow | undefined> {
  const { rows } = await tx.query<WhitelistRow>(
    `INSERT INTO whitelist_addresses (id, workspace_id, environment, network, address, label, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (workspace_id, environment, network, address) DO NOTHING
     RETURNING *`,
    [
      entry.id,
      scope.workspaceId,
      scope.environment,
      entry.network,
      entry.address,
      entry.label,
      entry.createdBy,
      entry.at,
    ],
  );
  return rows[0];
}

export async function listWhitelistRows(
  q: Queryable,
  scope: Tenant,
  filter: { network?: string } & PageRequest,
): Promise<WhitelistRow[]> {
  const params: unknown[] = [scope.workspaceId, scope.environment, filter.network ?? null];
  const { rows } = await q.query<WhitelistRow>(
    `SELECT * FROM whitelist_addresses WHERE workspace_id = $1 AND environment = $2
        AND ($3::text IS NULL OR network = $3) ${pageById(params, filter)}`,
    params,
  );
  return rows;
}

export async function deleteWhitelistRow(
  tx: Tx,
  scope: Tenant,
  id: string,
): Promise<WhitelistRow | undefined> {
  const { rows } = await tx.query<WhitelistRow>(
    'DELETE FROM whitelist_addresses WHERE id = $1 AND workspace_id = $2 AND environment = $3 RETURNING *',
    [id, scope.workspaceId, scope.environment],
  );
  return rows[0];
}

export async function whitelistHas(q: Queryable, scope: Tenant, network: string, address: string) {
  const { rows } = await q.query(
    'SELECT 1 FROM whitelist_addresses WHERE workspace_id = $1 AND environment = $2 AND network = $3 AND address = $4',
    [scope.workspaceId, scope.environment, network, address],
  );
  return rows.length > 0;
}
