/**
 * The soak's own arithmetic for what it checks the service against, written from the rules rather
 * than imported from src (an error shared by both would pass unseen):
 * - the amount due of a CobV (BCB API Pix, openapi.yaml v2.9.0, CobVValor and Pix.componentesValor):
 *   original + multa + juros − abatimento − desconto, each part in centavos rounded half up, never
 *   below zero; the fine once from the day after the due date, interest per calendar day late (a
 *   month 30 days, a year 365), a discount only on or before the due date, a rebate always;
 * - the cash-in fee of a schedule: fixed + bps of the amount, rounded up;
 * - São Paulo calendar days (America/Sao_Paulo has kept UTC−3 all year since 2019).
 */

export interface ValuePart {
  modality: number;
  value_minor?: string;
  percent?: string;
}
export interface ChargeTerms {
  fine?: ValuePart;
  interest?: ValuePart;
  rebate?: ValuePart;
  discount?: ValuePart & { dates?: { date: string; value_minor?: string; percent?: string }[] };
}

const DAY_MS = 86_400_000;
const SAO_PAULO_OFFSET_MS = 3 * 3_600_000;

/** The São Paulo day (YYYY-MM-DD) of an ISO instant. */
export const saoPauloDay = (iso: string) =>
  new Date(Date.parse(iso) - SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Calendar days from `from` to `to`. */
export const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** `months` later on the same day, or the month's last day when it is shorter. */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, last));
  return target.toISOString().slice(0, 10);
}

/** numerator / denominator to the nearest whole, halves up (both positive). */
const roundHalfUp = (numerator: bigint, denominator: bigint) =>
  (2n * numerator + denominator) / (2n * denominator);

/** "2.50" as hundredths of a percent (250). */
const hundredths = (percent: string) => BigInt(percent.replace('.', ''));

/** `percent` of `base` over `days` of a `per`-day period, in centavos. */
const share = (base: bigint, percent: string, days = 1n, per = 1n) =>
  roundHalfUp(base * hundredths(percent) * days, 10_000n * per);

const valueOr = (part: ValuePart, base: bigint) =>
  part.value_minor !== undefined ? BigInt(part.value_minor) : share(base, part.percent!);

function interest(part: ValuePart, base: bigint, late: bigint): bigint {
  switch (part.modality) {
    case 1:
      return BigInt(part.value_minor!) * late;
    case 2:
      return share(base, part.percent!, late);
    case 3:
      return share(base, part.percent!, late, 30n);
    default:
      return share(base, part.percent!, late, 365n);
  }
}

function discount(
  part: NonNullable<ChargeTerms['discount']>,
  base: bigint,
  ahead: bigint,
  day: string,
): bigint {
  if (part.modality === 3) return BigInt(part.value_minor!) * ahead;
  if (part.modality === 5) return share(base, part.percent!, ahead);
  // Modalities 1 and 2: the entry of the first date not yet passed.
  const entry = (part.dates ?? []).filter((d) => d.date >= day).sort((a, b) => (a.date < b.date ? -1 : 1))[0];
  return entry ? valueOr({ modality: part.modality, ...entry }, base) : 0n;
}

/** What paying the charge on `day` costs. */
export function dueOn(charge: { original: bigint; due: string; terms: ChargeTerms }, day: string): bigint {
  const { original, terms } = charge;
  const late = BigInt(daysFrom(charge.due, day));
  let total = original;
  if (late > 0n && terms.fine) total += valueOr(terms.fine, original);
  if (late > 0n && terms.interest) total += interest(terms.interest, original, late);
  if (late <= 0n && terms.discount) total -= discount(terms.discount, original, -late, day);
  if (terms.rebate) total -= valueOr(terms.rebate, original);
  return total > 0n ? total : 0n;
}

/**
 * The cash-in fee of `amount` under a schedule, as a charge takes it (never more than it was paid)
 * or as a subscription cycle does (nothing when it would take the whole cycle).
 */
export function cashInFee(
  amount: bigint,
  schedule: { fixedMinor: bigint; bps: bigint },
  of: 'charge' | 'cycle' = 'charge',
): bigint {
  const fee = schedule.fixedMinor + (amount * schedule.bps + 9_999n) / 10_000n;
  if (fee < amount) return fee;
  return of === 'charge' ? amount : 0n;
}
