/**
 * The daily report behind the dashboard's charts: per local day (America/Sao_Paulo) the BRL money
 * in, money out and fees of completed payments, and the available balance at the day's end.
 */
import type { Queryable } from '../../db/types.ts';
import { dailyAvailableMoves } from '../../ledger/daily.ts';
import { invalidRequest } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { DEFAULT_TIME_ZONE, rangeBound } from '../../platform/time-zone.ts';
import { partyFilter } from '../parties/service.ts';
import { dailyPaymentTotals } from './daily-repo.ts';
import { type DailyReportInput, type DailyReportView, MAX_REPORT_DAYS } from './report-schemas.ts';

const DAY_MS = 86_400_000;
/** The day's number since 1970, or NaN for a day the calendar lacks (Date.parse rolls 02-30 into March). */
function dayNumber(text: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? Number.NaN : ms / DAY_MS;
}

/** Every YYYY-MM-DD from `from` to `to`, inclusive; a range backwards or too long is refused. */
export function daysOf(from: string, to: string): string[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (Number.isNaN(first))
    throw invalidRequest('from is not a date.', [{ field: 'querystring.from', issue: 'is not a date' }]);
  if (Number.isNaN(last))
    throw invalidRequest('to is not a date.', [{ field: 'querystring.to', issue: 'is not a date' }]);
  if (last < first)
    throw invalidRequest('to must not be before from.', [
      { field: 'querystring.to', issue: 'not after from' },
    ]);
  if (last - first + 1 > MAX_REPORT_DAYS) {
    throw invalidRequest(`A report covers at most ${MAX_REPORT_DAYS} days.`, [
      { field: 'querystring.to', issue: 'out of range' },
    ]);
  }
  return Array.from({ length: last - first + 1 }, (_, i) =>
    new Date((first + i) * DAY_MS).toISOString().slice(0, 10),
  );
}

export async function dailyReport(q: Queryable, ctx: Ctx, input: DailyReportInput): Promise<DailyReportView> {
  const days = daysOf(input.from, input.to);
  const zone = DEFAULT_TIME_ZONE;
  const filter = {
    partyId: await partyFilter(q, ctx.caller, input.party_id),
    from: rangeBound(input.from, zone, 'from'),
    to: rangeBound(input.to, zone, 'to'),
    zone,
    currency: 'BRL',
  };
  const totals = new Map((await dailyPaymentTotals(q, ctx.caller, filter)).map((row) => [row.day, row]));
  const balance = await dailyAvailableMoves(q, ctx.caller, filter);
  let running = balance.opening;
  return {
    currency: 'BRL',
    time_zone: 'America/Sao_Paulo',
    days: days.map((day) => {
      running += balance.moves.get(day) ?? 0n;
      const row = totals.get(day);
      return {
        day,
        in_minor: row?.in_minor ?? '0',
        out_minor: row?.out_minor ?? '0',
        fees_minor: row?.fees_minor ?? '0',
        balance_minor: running.toString(),
      };
    }),
  };
}
