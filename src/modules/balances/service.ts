import type { Queryable } from '../../db/types.ts';
import { BALANCE_KINDS, type BalanceKind } from '../../ledger/accounts.ts';
import { CURRENCY_CODES, currencyOf, formatAmount, scaleOf } from '../../ledger/currency.ts';
import { partyBalances, statementCursor, statementLines } from '../../ledger/reads.ts';
import { invalidRequest } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { parseTimestampBound } from '../../platform/time.ts';
import { defaultParty, partyFilter } from '../parties/service.ts';
import { partyDebts } from '../pix/service.ts';

/**
 * One row per (party, currency, kind) of the workspace's parties that has an account, plus zero rows for
 * the BRL, USDT and USDC available balances of the party asked about (party_id, or the caller's default
 * party: the key's party or the workspace's default entity party) when it has none yet.
 * Order: that party first, then by party id; currencies in table order; kinds available, pending, locked, trading.
 */
export async function listBalances(q: Queryable, ctx: Ctx, query: { party_id?: string; currency?: string }) {
  const { caller } = ctx;
  const currency =
    query.currency === undefined ? null : currencyOf(query.currency.toUpperCase(), 'querystring.currency');
  const partyId = await partyFilter(q, caller, query.party_id);
  const rows = await partyBalances(q, caller, { partyId, currency });
  const subject = partyId ?? (await defaultParty(q, caller));
  for (const code of CURRENCY_CODES) {
    if (currency !== null && code !== currency) continue;
    if (!rows.some((row) => row.party_id === subject && row.currency === code && row.kind === 'available')) {
      rows.push({ party_id: subject, currency: code, kind: 'available', balance: 0n });
    }
  }
  const rank = (row: (typeof rows)[number]) => [
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
  const owed = await partyDebts(q, caller, partyId);
  return rows.map((row) => ({
    currency: row.currency,
    kind: row.kind,
    balance_minor: formatAmount(row.balance),
    scale: scaleOf(row.currency),
    party_id: row.party_id,
    // Only where the party owes something: a row without it owes nothing.
    ...(row.currency === 'BRL' && row.kind === 'available' && owed.has(row.party_id)
      ? { owed_minor: formatAmount(owed.get(row.party_id)!) }
      : {}),
  }));
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
export async function statement(q: Queryable, ctx: Ctx, query: StatementQuery) {
  const { caller } = ctx;
  const partyId = await partyFilter(q, caller, query.party_id);
  const after = query.cursor === undefined ? undefined : await statementCursor(q, caller, query.cursor);
  if (query.cursor !== undefined && !after) {
    throw invalidRequest('cursor is not the id of a statement line of this workspace.', [
      { field: 'querystring.cursor', issue: 'unknown statement line' },
    ]);
  }
  const rows = await statementLines(q, caller, {
    partyId,
    from: parseTimestampBound(query.from, 'from'),
    to: parseTimestampBound(query.to, 'to'),
    kind: query.kind ?? null,
    after,
    limit: query.limit,
  });
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
