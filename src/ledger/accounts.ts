import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types.ts';
import type { Environment } from '../platform/context.ts';
import type { SystemKind } from '../platform/rails.ts';
import type { Currency } from './currency.ts';
import { takeLedgerGate } from './gate.ts';

/** The kinds of a party's balance (API.md Ledger). */
export const BALANCE_KINDS = ['available', 'pending', 'locked', 'trading'] as const;
export type BalanceKind = (typeof BALANCE_KINDS)[number];

/**
 * The service's own accounts, one set per workspace and environment: a journal touches one workspace's
 * rows only, so no row shared by tenants sits on the write path. Service-wide totals are sums over
 * workspaces (systemTotals). Their kinds are each rail's settlement account and fee revenue.
 */
export { SYSTEM_KINDS, type SystemKind } from '../platform/rails.ts';

export interface PartyAccount {
  type: 'party';
  workspaceId: string;
  environment: Environment;
  partyId: string;
  currency: Currency;
  kind: BalanceKind;
}

export interface SystemAccount {
  type: 'system';
  workspaceId: string;
  environment: Environment;
  kind: SystemKind;
  currency: Currency;
  /** Only for crypto_custody: the chain the coins sit on. */
  network: string | null;
}

export type AccountRef = PartyAccount | SystemAccount;

export const partyAccount = (
  workspaceId: string,
  environment: Environment,
  partyId: string,
  currency: Currency,
  kind: BalanceKind = 'available',
): PartyAccount => ({ type: 'party', workspaceId, environment, partyId, currency, kind });

/** Constructors of the system accounts of a workspace in an environment. */
export const systemAccount = {
  /** Money received or paid through the PIX rail (BRL). */
  pixSettlement: (workspaceId: string, environment: Environment): SystemAccount => ({
    type: 'system',
    workspaceId,
    environment,
    kind: 'pix_settlement',
    currency: 'BRL',
    network: null,
  }),
  /** Fees the service charged, per currency. */
  feeRevenue: (workspaceId: string, environment: Environment, currency: Currency): SystemAccount => ({
    type: 'system',
    workspaceId,
    environment,
    kind: 'fee_revenue',
    currency,
    network: null,
  }),
  /**
   * What the workspace's parties owe the service: the part of a return the PSP made that their
   * balance could not cover, paid down by their next credits (per party: the pix module's records).
   */
  partyReceivable: (workspaceId: string, environment: Environment, currency: Currency): SystemAccount => ({
    type: 'system',
    workspaceId,
    environment,
    kind: 'party_receivable',
    currency,
    network: null,
  }),
  /** Stablecoins held on one chain. */
  cryptoCustody: (
    workspaceId: string,
    environment: Environment,
    network: string,
    currency: Currency,
  ): SystemAccount => ({
    type: 'system',
    workspaceId,
    environment,
    kind: 'crypto_custody',
    currency,
    network,
  }),
  /** The service's own stock of a currency, the other side of RFQ conversions. */
  fxInventory: (workspaceId: string, environment: Environment, currency: Currency): SystemAccount => ({
    type: 'system',
    workspaceId,
    environment,
    kind: 'fx_inventory',
    currency,
    network: null,
  }),
};

/**
 * A stable text key of an account: equal keys are the same account. Migration 0006 builds the system
 * key in SQL (ledger_account_id) to find the accounts it created: the two must stay the same.
 */
export const accountKey = (ref: AccountRef): string =>
  ref.type === 'party'
    ? `party|${ref.workspaceId.toLowerCase()}|${ref.environment}|${ref.partyId.toLowerCase()}|${ref.currency}|${ref.kind}`
    : `system|${ref.workspaceId.toLowerCase()}|${ref.environment}|${ref.kind}|${ref.currency}|${ref.network ?? ''}`;

/**
 * An account's id is derived from its key (SHA-256, shaped as a UUID of version 8, "custom"), so
 * posting needs no lookup: the first posting to an account creates it. Ids are internal, never shown.
 */
export const accountId = (ref: AccountRef): string => accountIdOfKey(accountKey(ref));

/** Ids already derived: a payout asks for the same few accounts' ids on every request. */
const knownIds = new Map<string, string>();
const KNOWN_IDS_MAX = 10_000;

/** The id of an account key (also how the shared system accounts of before migration 0006 were named). */
export function accountIdOfKey(key: string): string {
  const known = knownIds.get(key);
  if (known !== undefined) return known;
  const id = deriveAccountId(key);
  if (knownIds.size >= KNOWN_IDS_MAX) knownIds.clear();
  knownIds.set(key, id);
  return id;
}

function deriveAccountId(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Creates the accounts (and their zero balance rows) that do not exist yet. */
export async function ensureAccounts(q: Queryable, refs: readonly AccountRef[]): Promise<void> {
  if (refs.length === 0) return;
  await q.query(
    `WITH created AS (
       INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[])
                  AS u (id, workspace_id, environment, party_id, currency, kind, network)
        ORDER BY id -- a fixed order: two transactions creating the same accounts cannot deadlock
       ON CONFLICT DO NOTHING
       RETURNING workspace_id, id, party_id
     )
     INSERT INTO ledger_balances (workspace_id, account_id, non_negative)
     SELECT workspace_id, id, party_id IS NOT NULL FROM created ON CONFLICT DO NOTHING`,
    [
      refs.map(accountId),
      refs.map((ref) => ref.workspaceId),
      refs.map((ref) => ref.environment),
      refs.map((ref) => (ref.type === 'party' ? ref.partyId : null)),
      refs.map((ref) => ref.currency),
      refs.map((ref) => ref.kind),
      refs.map((ref) => (ref.type === 'system' ? ref.network : null)),
    ],
  );
}

/** The balance of one account in minor units (0 for an account never posted to). */
export async function balanceOf(q: Queryable, ref: AccountRef): Promise<bigint> {
  const { rows } = await q.query<{ balance: bigint }>(
    'SELECT balance FROM ledger_balances WHERE workspace_id = $1 AND account_id = $2',
    [ref.workspaceId, accountId(ref)],
  );
  return rows[0]?.balance ?? 0n;
}

/**
 * The balance of one account, its row locked until the transaction ends: what a debit sized to the
 * balance reads first, so no other transaction spends it in between (0, and nothing locked, for an
 * account never posted to). The workspace's ledger gate is taken first, as every writer takes it.
 */
export async function lockBalance(q: Queryable, ref: AccountRef): Promise<bigint> {
  await takeLedgerGate(q, ref.workspaceId);
  const { rows } = await q.query<{ balance: bigint }>(
    'SELECT balance FROM ledger_balances WHERE workspace_id = $1 AND account_id = $2 FOR UPDATE',
    [ref.workspaceId, accountId(ref)],
  );
  return rows[0]?.balance ?? 0n;
}

export interface SystemTotal {
  kind: SystemKind;
  currency: Currency;
  network: string | null;
  /** Σ of the balances of this kind over every workspace of the environment. */
  balance: bigint;
  /** How many workspace accounts the sum covers. */
  accounts: number;
}

/**
 * Service-wide totals of the system accounts of an environment, for operators: the sums over
 * workspaces of what used to be one shared row per kind. Read-only and off the write path.
 */
export async function systemTotals(q: Queryable, environment: Environment): Promise<SystemTotal[]> {
  const { rows } = await q.query<{
    kind: SystemKind;
    currency: Currency;
    network: string | null;
    balance: string;
    accounts: number;
  }>(
    // sum(bigint) is numeric: as text it cannot overflow on the way out. The pre-0006 shared rows
    // (closed at 0 since) add nothing and are not counted.
    `SELECT a.kind, a.currency, a.network, sum(b.balance)::text AS balance,
            count(*)::int AS accounts
       FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
      WHERE a.party_id IS NULL AND a.environment = $1 AND NOT a.legacy_shared
      GROUP BY a.kind, a.currency, a.network
      ORDER BY a.kind, a.currency, a.network NULLS FIRST`,
    [environment],
  );
  return rows.map((row) => ({ ...row, balance: BigInt(row.balance) }));
}
