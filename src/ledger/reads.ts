/** The read queries over the ledger's tables: party balances and statement lines. */
import type { Queryable } from '../db/types.ts';
import type { Environment } from '../platform/environment.ts';
import { pageByTime, type TimeCursor } from '../platform/pagination.ts';
import type { BalanceKind } from './accounts.ts';
import type { Currency } from './currency.ts';

export interface PartyBalanceRow {
  party_id: string;
  currency: Currency;
  kind: BalanceKind;
  balance: bigint;
}

export interface BookScope {
  workspaceId: string;
  environment: Environment;
}

/** Every balance of the workspace's parties that has an account (one party's, when partyId is set). */
export async function partyBalances(
  q: Queryable,
  scope: BookScope,
  filter: { partyId: string | null; currency: Currency | null },
): Promise<PartyBalanceRow[]> {
  const { rows } = await q.query<PartyBalanceRow>(
    `SELECT a.party_id, a.currency, a.kind, b.balance
       FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
      WHERE a.workspace_id = $1 AND a.environment = $2 AND a.party_id IS NOT NULL
        AND ($3::uuid IS NULL OR a.party_id = $3) AND ($4::text IS NULL OR a.currency = $4)`,
    [scope.workspaceId, scope.environment, filter.partyId, filter.currency],
  );
  return rows;
}

export interface StatementLineRow {
  id: string;
  journal_id: string;
  reference_type: string;
  reference_id: string;
  posted_at: Date;
  party_id: string;
  currency: Currency;
  kind: BalanceKind;
  direction: 'debit' | 'credit';
  amount: bigint;
}

/** Where a statement cursor (a line's id) stands, when that line is one the scope can see. */
export async function statementCursor(
  q: Queryable,
  scope: BookScope & { partyId: string | null },
  lineId: string,
): Promise<TimeCursor | undefined> {
  const { rows } = await q.query<{ posted_at: Date; id: string }>(
    `SELECT posted_at, id FROM ledger_postings
      WHERE id = $1 AND workspace_id = $2 AND environment = $3 AND party_id IS NOT NULL
        AND ($4::uuid IS NULL OR party_id = $4)`,
    [lineId, scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows[0] ? { at: rows[0].posted_at, id: rows[0].id } : undefined;
}

/**
 * Party-side postings, newest first by (posted_at, id) (oldest first with `order: 'asc'`), so lines of
 * one instant keep one order.
 */
export async function statementLines(
  q: Queryable,
  scope: BookScope,
  filter: {
    partyId: string | null;
    from: Date | null;
    to: Date | null;
    kind: BalanceKind | null;
    currency?: Currency | null;
    after?: TimeCursor;
    limit?: number;
    order?: 'asc' | 'desc';
  },
): Promise<StatementLineRow[]> {
  const params: unknown[] = [
    scope.workspaceId,
    scope.environment,
    filter.partyId,
    filter.from,
    filter.to,
    filter.kind,
    filter.currency ?? null,
  ];
  const { rows } = await q.query<StatementLineRow>(
    `SELECT p.id, p.journal_id, j.reference_type, j.reference_id, p.posted_at, p.party_id, p.currency, p.kind,
            p.direction, p.amount
       FROM ledger_postings p JOIN ledger_journals j ON j.workspace_id = p.workspace_id AND j.id = p.journal_id
      WHERE p.workspace_id = $1 AND p.environment = $2 AND p.party_id IS NOT NULL
        AND ($3::uuid IS NULL OR p.party_id = $3)
        AND ($4::timestamptz IS NULL OR p.posted_at >= $4) AND ($5::timestamptz IS NULL OR p.posted_at < $5)
        AND ($6::text IS NULL OR p.kind = $6) AND ($7::text IS NULL OR p.currency = $7)
        ${pageByTime(params, filter.after, filter.limit, { time: 'p.posted_at', id: 'p.id' }, filter.order)}`,
    params,
  );
  return rows;
}
