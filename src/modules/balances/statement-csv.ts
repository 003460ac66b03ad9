import type { Queryable } from '../../db/types.ts';
import type { BalanceKind } from '../../ledger/accounts.ts';
import { type Currency, currencyOf, formatAmount, toDecimal } from '../../ledger/currency.ts';
import { type BookScope, type StatementLineRow, statementLines } from '../../ledger/reads.ts';
import { csvRow } from '../../platform/csv.ts';
import { invalidRequest } from '../../platform/errors.ts';
import type { TimeCursor } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { isDayText, localDateOf, localIso, rangeBound, timeZoneOf } from '../../platform/time-zone.ts';
import { partyFilter } from '../parties/service.ts';
import { STATEMENT_CSV_COLUMNS } from './schemas.ts';

export interface StatementCsvQuery {
  from: string;
  to: string;
  timezone?: string;
  currency?: string;
  kind?: BalanceKind;
  party_id?: string;
}

/** Lines read per query: a page is one chunk of the reply, and never the whole range in memory. */
const PAGE = 500;

interface ExportFilter {
  partyId: string | null;
  from: Date;
  to: Date;
  kind: BalanceKind | null;
  currency: Currency | null;
}

/**
 * The statement of a range as CSV, oldest line first (the order a ledger is booked in): every input is
 * checked here, before the first byte, so a bad one is a JSON error; `open` then reads the first page
 * before any byte is sent, so a database that fails at once is a JSON error too (503 with
 * Retry-After), and the rest page by page as the reply is consumed. No transaction is held while the
 * client reads (on PGlite it would hold the only connection), so each page is its own query: the
 * keyset never repeats or skips a committed line, and a range that has closed reads the same every time.
 */
export async function statementCsv(q: Queryable, ctx: Ctx, query: StatementCsvQuery) {
  const { caller } = ctx;
  const zone = timeZoneOf(query.timezone);
  const from = rangeBound(query.from, zone, 'from');
  const to = rangeBound(query.to, zone, 'to');
  // Between days the text decides: a day a zone skipped (Pacific/Apia's 30 December 2011) starts where
  // the next one does, and a range of such days is an empty file, not an error.
  const days = isDayText(query.from) && isDayText(query.to);
  if (days ? query.to < query.from : to.getTime() <= from.getTime()) {
    throw invalidRequest('to must be later than from.', [
      { field: 'querystring.to', issue: 'not after from' },
    ]);
  }
  const currency =
    query.currency === undefined ? null : currencyOf(query.currency.toUpperCase(), 'querystring.currency');
  const partyId = await partyFilter(q, caller, query.party_id);
  const filter: ExportFilter = { partyId, from, to, kind: query.kind ?? null, currency };
  const firstDay = days ? query.from : localDateOf(from, zone);
  const lastDay = days ? query.to : localDateOf(new Date(to.getTime() - 1), zone);
  return {
    filename: `lastro-statement-${caller.environment}-${firstDay}-to-${lastDay}.csv`,
    timeZone: zone,
    /** The file's text, its first page already read; a HEAD request never calls it. */
    open: () => csvLines(q, caller, filter, zone),
  };
}

async function csvLines(q: Queryable, scope: BookScope, filter: ExportFilter, zone: string) {
  const page = (after?: TimeCursor) =>
    statementLines(q, scope, { ...filter, after, limit: PAGE, order: 'asc' });
  const first = await page();
  async function* text() {
    yield csvRow(STATEMENT_CSV_COLUMNS);
    let rows = first;
    for (;;) {
      if (rows.length > 0) yield rows.map((row) => csvRow(cells(row, zone))).join('');
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) return;
      rows = await page({ at: last.posted_at, id: last.id });
    }
  }
  return text();
}

/** One line's cells, in STATEMENT_CSV_COLUMNS order; amounts unsigned, the direction says which way. */
const cells = (row: StatementLineRow, zone: string): string[] => [
  localIso(row.posted_at, zone),
  localDateOf(row.posted_at, zone),
  row.id,
  row.journal_id,
  row.party_id,
  row.currency,
  row.kind,
  row.direction,
  toDecimal(row.amount, row.currency),
  formatAmount(row.amount),
  row.reference_type,
  row.reference_id,
];
