/**
 * The calendar of a Pix Automático subscription, on São Paulo calendar days written YYYY-MM-DD.
 *
 * BCB, Pix Automático rules (Regulamento Pix, Resolução BCB nº 1/2020 as amended for Pix Automático;
 * API Pix github.com/bacen/pix-api openapi.yaml v2.9.0, tags Rec and CobR): the receiver sends each
 * cycle's charge (cobr) 2 to 10 days before its due date (calendario.dataDeVencimento); a recurrence
 * whose politicaRetentativa is PERMITE_3R_7D allows up to 3 new attempts within the 7 days after the
 * due date, NAO_PERMITE none.
 */
import { DEFAULT_TIME_ZONE, localDateOf } from '../../platform/time-zone.ts';

export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export type RetryPolicy = 'none' | 'three_in_seven_days';

/** The charge goes out this many days before the due date: inside the 2-to-10-day window, with room. */
export const CHARGE_LEAD_DAYS = 5;
export const CHARGE_WINDOW_DAYS = { earliest: 10, latest: 2 } as const;
/** PERMITE_3R_7D: the retries fall 2, 4 and 6 days after the due date, inside the 7 allowed. */
export const RETRY_OFFSETS_DAYS = [2, 4, 6] as const;

const MONTHS: Record<Exclude<Frequency, 'weekly'>, number> = {
  monthly: 1,
  quarterly: 3,
  semiannual: 6,
  annual: 12,
};

const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
const text = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const [y, m, d] = parts(day);
  return text(new Date(Date.UTC(y, m - 1, d + days)));
}

/** `months` after `day`, on the same day of the month or the month's last when it has fewer days. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = parts(day);
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return text(new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))));
}

/** The due date of cycle `sequence` (1 is the start date). */
export function dueDateOf(start: string, frequency: Frequency, sequence: number): string {
  if (frequency === 'weekly') return addDays(start, 7 * (sequence - 1));
  return addMonths(start, MONTHS[frequency] * (sequence - 1));
}

/** The day a cycle's charge is sent: CHARGE_LEAD_DAYS before its due date. */
export const chargeDateOf = (due: string) => addDays(due, -CHARGE_LEAD_DAYS);

/** Whether `today` is inside the window in which the BCB lets a cycle's charge be sent. */
export const insideChargeWindow = (today: string, due: string) =>
  today >= addDays(due, -CHARGE_WINDOW_DAYS.earliest) && today <= addDays(due, -CHARGE_WINDOW_DAYS.latest);

/** PERMITE_3R_7D: every retry falls within this many days after the due date. */
export const RETRY_WINDOW_DAYS = 7;

/**
 * The day of the next attempt after `attempts` failed ones, or null when the policy allows no more.
 * Live, the PSP takes only a future day: `after` (today) moves it to the day after, while that is
 * still inside the policy's 7 days.
 */
export function retryDateOf(
  due: string,
  policy: RetryPolicy,
  attempts: number,
  after?: string,
): string | null {
  if (policy === 'none') return null;
  const offset = RETRY_OFFSETS_DAYS[attempts - 1];
  if (offset === undefined) return null;
  const planned = addDays(due, offset);
  const earliest = after ? addDays(after, 1) : planned;
  const day = earliest > planned ? earliest : planned;
  return day > addDays(due, RETRY_WINDOW_DAYS) ? null : day;
}

/** The São Paulo calendar day of an instant: Pix due dates are Brazilian days. */
export const dayOf = (at: Date) => localDateOf(at, DEFAULT_TIME_ZONE);
