import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types.ts';
import type { Environment } from '../platform/context.ts';
import type { Currency } from './currency.ts';

/** The kinds of a party's balance (API.md Ledger). */
export const BALANCE_KINDS = ['available', 'pending', 'locked', 'trading'] as const;
export type BalanceKind = (typeof BALANCE_KINDS)[number];

/** The service's own accounts, one set per environment. */
export const SYSTEM_KINDS = ['pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory'] as const;
export type SystemKind = (typeof SYSTEM_KINDS)[number];

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

/** Constructors of the system accounts of an environment. */
export const systemAccount = {
  /** Money received or paid through the PIX rail (BRL). */
  pixSettlement: (environment: Environment): SystemAccount => ({
    type: 'system',
    environment,
    kind: 'pix_settlement',
    currency: 'BRL',
    network: null,
  }),
  /** Fees the service charged, per currency. */
  feeRevenue: (environment: Environment, currency: Currency): SystemAccount => ({
    type: 'system',
    environment,
    kind: 'fee_revenue',
    currency,
    network: null,
  }),
  /** Stablecoins held on one chain. */
  cryptoCustody: (environment: Environment, network: string, currency: Currency): SystemAccount => ({
    type: 'system',
    environment,
    kind: 'crypto_custody',
    currency,
    network,
  }),
  /** The service's own stock of a currency, the other side of RFQ conversions. */
  fxInventory: (environment: Environment, currency: Currency): SystemAccount => ({
    type: 'system',
    environment,
    kind: 'fx_inventory',
    currency,
    network: null,
  }),
};

/** A stable text key of an account: equal keys are the same account. */
export const accountKey = (ref: AccountRef): string =>
  ref.type === 'party'
    ? `party|${ref.workspaceId.toLowerCase()}|${ref.environment}|${ref.partyId.toLowerCase()}|${ref.currency}|${ref.kind}`
    : `system|${ref.environment}|${ref.kind}|${ref.currency}|${ref.network ?? ''}`;

/**
 * An account's id is derived from its key (SHA-256, shaped as a UUID of version 8, "custom"), so
 * posting needs no lookup: the first posting to an account creates it. Ids are internal, never shown.
 */
export function accountId(ref: AccountRef): string {
  const bytes = createHash('sha256').update(accountKey(ref)).digest().subarray(0, 16);
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
       RETURNING id, party_id
     )
     INSERT INTO ledger_balances (account_id, non_negative)
     SELECT id, party_id IS NOT NULL FROM created ON CONFLICT DO NOTHING`,
    [
      refs.map(accountId),
      refs.map((ref) => (ref.type === 'party' ? ref.workspaceId : null)),
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
    'SELECT balance FROM ledger_balances WHERE account_id = $1',
    [accountId(ref)],
  );
  return rows[0]?.balance ?? 0n;
}
