import type { Queryable } from '../../db/types.ts';
import { BALANCE_KINDS, type BalanceKind } from '../../ledger/accounts.ts';
import { CURRENCY_CODES, type Currency, currencyOf, formatAmount, scaleOf } from '../../ledger/currency.ts';
import type { Caller } from '../../platform/context.ts';
import { invalidRequest } from '../../platform/errors.ts';
import { iso } from '../../platform/schema.ts';
import { parseTimestampBound } from '../../platform/time.ts';
import { defaultParty, partyFilter } from '../parties/service.ts';

interface BalanceRow {
  party_id: string;
  currency: Currency;
  kind: BalanceKind;
  balance: bigint;
}

/**
 * One row per (party, currency, kind) of the workspace's parties that has an account, plus zero rows for
 * the BRL, USDT and USDC available balances of the party asked about (party_id, or the caller's default
 * party: the key's party or the workspace's default entity party) when it has none yet.
 * Order: that party first, then by party id; currencies in table order; kinds available, pending, locked, trading.
 */
export async function listBalances(
  q: Queryable,
  caller: Caller,
  query: { party_id?: string; currency?: string },
) {
  const currency = query.currency === undefined ? null : currencyOf(query.currency.toUpperCase());
  const partyId = await partyFilter(q, caller, query.party_id);
  const { rows } = await q.query<BalanceRow>(
    `SELECT a.party_id, a.currency, a.kind, b.balance
       FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
      WHERE a.workspace_id = $1 AND a.environment = $2 AND a.party_id IS NOT NULL
        AND ($3::uuid IS NULL OR a.party_id = $3) AND ($4::text IS NULL OR a.currency = $4)`,
    [caller.workspaceId, caller.environment, partyId, currency],
  );
  const subject = partyId ?? (await defaultParty(q, caller));
  for (const code of CURRENCY_CODES) {
    if (currency !== null && code !== currency) continue;
    if (!rows.some((row) => row.party_id === subject && row.currency === code && row.kind === 'available')) {
      rows.push({ party_id: subject, currency: code, kind: 'available', balance: 0n });
    }
  }
  const rank = (row: BalanceRow) => [
    row.party_id === subject ? 0 : 1,
    row.party_id,
    CURRENCY_CODES.indexOf(row.currency),
    BALANCE_KINDS.indexOf(row.kind),
  ];
  rows.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
  return rows.map((row) => ({
    currency: row.currency,
    kind: row.kind,
    balance_minor: formatAmount(row.balance),
    scale: scaleOf(row.currency),
    party_id: row.party_id,
  }));
}

interface LineRow {
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

export interface StatementQuery {
  limit?: number;
  cursor?: string;
  from?: string;
  to?: string;
  kind?: BalanceKind;
  party_id?: string;
}

/**
 * The workspace's party-side postings, newest first: ordered by (posted_at, id) descending, so lines
 * posted at the same instant keep one stable order. The cursor is the id of the last line seen; it must
 * be a line the caller can see, else 400 invalid_request.
 */
export async function statement(q: Queryable, caller: Caller, query: StatementQuery) {
  const partyId = await partyFilter(q, caller, query.party_id);
  let after: { posted_at: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    const { rows } = await q.query<{ posted_at: Date; id: string }>(
      `SELECT posted_at, id FROM ledger_postings
        WHERE id = $1 AND workspace_id = $2 AND environment = $3 AND party_id IS NOT NULL
          AND ($4::uuid IS NULL OR party_id = $4)`,
      [query.cursor, caller.workspaceId, caller.environment, caller.partyId],
    );
    after = rows[0];
    if (!after) {
      throw invalidRequest('cursor is not the id of a statement line of this workspace.', [
        { field: 'querystring.cursor', issue: 'unknown statement line' },
      ]);
    }
  }
  const { rows } = await q.query<LineRow>(
    `SELECT p.id, p.journal_id, j.reference_type, j.reference_id, p.posted_at, p.party_id, p.currency, p.kind,
            p.direction, p.amount
       FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
      WHERE p.workspace_id = $1 AND p.environment = $2 AND p.party_id IS NOT NULL
        AND ($3::uuid IS NULL OR p.party_id = $3)
        AND ($4::timestamptz IS NULL OR p.posted_at >= $4) AND ($5::timestamptz IS NULL OR p.posted_at < $5)
        AND ($6::text IS NULL OR p.kind = $6)
        AND ($7::timestamptz IS NULL OR (p.posted_at, p.id) < ($7, $8::uuid))
      ORDER BY p.posted_at DESC, p.id DESC
      LIMIT $9`,
    [
      caller.workspaceId,
      caller.environment,
      partyId,
      parseTimestampBound(query.from, 'from'),
      parseTimestampBound(query.to, 'to'),
      query.kind ?? null,
      after?.posted_at ?? null,
      after?.id ?? null,
      query.limit ?? 50,
    ],
  );
  return rows.map((row) => ({
    id: row.id,
    journal_id: row.journal_id,
    reference_type: row.reference_type,
    reference_id: row.reference_id,
    posted_at: iso(row.posted_at),
    party_id: row.party_id,
    currency: row.currency,
    kind: row.kind,
    scale: scaleOf(row.currency),
    direction: row.direction,
    amount_minor: formatAmount(row.amount),
  }));
}
