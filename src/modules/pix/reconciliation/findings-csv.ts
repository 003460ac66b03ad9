/**
 * The reconciliation findings of a date range as a CSV file for a finance team: the runs whose
 * window starts in the range, their times in the account's time zone (America/Sao_Paulo unless
 * named), streamed a page at a time so a long range never sits whole in memory.
 */
import type { Queryable } from '../../../db/types.ts';
import { csvRow } from '../../../platform/csv.ts';
import { invalidRequest } from '../../../platform/errors.ts';
import type { Ctx } from '../../../platform/request-context.ts';
import { localIso, rangeBound, timeZoneOf } from '../../../platform/time-zone.ts';
import { findingsInRange } from './repo.ts';
import { FINDINGS_CSV_COLUMNS } from './schemas.ts';

export async function findingsCsv(
  q: Queryable,
  ctx: Ctx,
  query: { from: string; to: string; timezone?: string },
) {
  const zone = timeZoneOf(query.timezone);
  const from = rangeBound(query.from, zone, 'from');
  const to = rangeBound(query.to, zone, 'to');
  if (to.getTime() <= from.getTime())
    throw invalidRequest('to must be later than from.', [
      { field: 'querystring.to', issue: 'not after from' },
    ]);
  const scope = { workspaceId: ctx.caller.workspaceId, environment: ctx.caller.environment };
  return {
    filename: `lastro-reconciliation-${scope.environment}-${query.from.slice(0, 10)}-to-${query.to.slice(0, 10)}.csv`,
    timeZone: zone,
    /** The file's text, its first page already read (a database error answers before the first byte). */
    open: async () => {
      const page = (after?: { runId: string; id: string }) =>
        findingsInRange(q, scope, { from, to, after, limit: PAGE });
      return csvText(await page(), page, zone);
    },
  };
}

const PAGE = 500;
type Page = Awaited<ReturnType<typeof findingsInRange>>;

async function* csvText(
  first: Page,
  page: (after: { runId: string; id: string }) => Promise<Page>,
  zone: string,
) {
  yield csvRow(FINDINGS_CSV_COLUMNS);
  let rows = first;
  for (;;) {
    if (rows.length > 0) yield rows.map((row) => csvRow(cells(row, zone))).join('');
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    rows = await page({ runId: last.run_id, id: last.id });
  }
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** One finding's cells, in FINDINGS_CSV_COLUMNS order. */
const cells = (f: Page[number], zone: string): string[] => [
  f.run_id,
  localIso(f.window_from, zone),
  localIso(f.window_to, zone),
  f.kind,
  text(f.end_to_end_id),
  text(f.payment_id),
  text(f.expected_minor),
  text(f.found_minor),
  text(f.expected_status),
  text(f.found_status),
  f.detail,
];
