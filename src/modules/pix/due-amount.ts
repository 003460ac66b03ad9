/**
 * What a PIX charge with a due date (the BCB API Pix's CobV) asks on a given day. The standard fixes
 * the parts and how they add up: the Pix's value is original + multa + juros − abatimento − desconto
 * (github.com/bacen/pix-api, openapi.yaml v2.9.0, Pix.componentesValor), with the modalities of
 * CobVValor (multa 1–2, juros 1–8, abatimento 1–2, desconto 1–6). How each part is reckoned here:
 *
 * - days are calendar days between dates in America/Sao_Paulo (the caller turns an instant into its
 *   date there); a payment on the due date is on time;
 * - fine (multa), once, from the day after the due date: modality 1 a fixed value, 2 a percentage of
 *   the original;
 * - interest (juros) for each calendar day late: modality 1 a value per day, 2 a percentage per day,
 *   3 a percentage per month (a month is 30 days), 4 a percentage per year (a year is 365 days); the
 *   business-day modalities 5–8 are not offered (the service keeps no banking calendar) and are
 *   refused when a charge is created;
 * - discount (desconto), only on or before the due date: modalities 1 and 2 a value or percentage
 *   until each of up to three dates, the entry of the earliest date not yet passed applying;
 *   modalities 3 and 5 a value or percentage per calendar day paid ahead of the due date; the
 *   business-day modalities 4 and 6 are refused like interest's;
 * - rebate (abatimento) always: modality 1 a value, 2 a percentage of the original;
 * - the total is never below zero.
 *
 * Rounding, written once (`percentOf`): each percentage part is rounded to the centavo on its own,
 * half up, because the standard reports each part in centavos and the total is their sum.
 * Percentages are decimal strings with two places ("2.00" is 2 %), never JS numbers.
 */

export interface FixedPart {
  modality: number;
  value_minor?: string;
  percent?: string;
}
export interface DatedDiscount {
  date: string;
  value_minor?: string;
  percent?: string;
}
export interface DiscountTerms extends FixedPart {
  dates?: DatedDiscount[];
}

/** A due-date charge's terms, as POST /v1/{env}/pix/due-charges takes them. */
export interface DueTerms {
  fine?: FixedPart;
  interest?: FixedPart;
  rebate?: FixedPart;
  discount?: DiscountTerms;
}

export interface DueCharge {
  nominalMinor: bigint;
  /** YYYY-MM-DD. */
  dueDate: string;
  terms: DueTerms;
}

export interface AmountDue {
  total_minor: bigint;
  original_minor: bigint;
  fine_minor: bigint;
  interest_minor: bigint;
  rebate_minor: bigint;
  discount_minor: bigint;
}

const DAY_MS = 86_400_000;
/** Days in the month and year of interest modalities 3 and 4. */
export const DAYS_PER_MONTH = 30n;
export const DAYS_PER_YEAR = 365n;

/** Whole days from one YYYY-MM-DD date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** "2.50" → 250n: a percentage in hundredths of a percent. */
export function percentHundredths(percent: string): bigint {
  const [whole, fraction = ''] = percent.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/**
 * base × percent × factor, rounded half up to the minor unit: the one rounding of this file.
 * `factor` is numerator / denominator (days late over days in a month, for instance).
 */
export function percentOf(base: bigint, percent: string, numerator = 1n, denominator = 1n): bigint {
  const scaled = base * percentHundredths(percent) * numerator;
  const divisor = 10_000n * denominator;
  return (scaled * 2n + divisor) / (divisor * 2n);
}

const valueOrPercent = (part: { value_minor?: string; percent?: string }, base: bigint) =>
  part.value_minor !== undefined ? BigInt(part.value_minor) : percentOf(base, part.percent ?? '0.00');

function interestFor(part: FixedPart, base: bigint, daysLate: bigint): bigint {
  if (part.modality === 1) return BigInt(part.value_minor ?? '0') * daysLate;
  const percent = part.percent ?? '0.00';
  if (part.modality === 3) return percentOf(base, percent, daysLate, DAYS_PER_MONTH);
  if (part.modality === 4) return percentOf(base, percent, daysLate, DAYS_PER_YEAR);
  return percentOf(base, percent, daysLate);
}

function discountFor(part: DiscountTerms, base: bigint, payDate: string, dueDate: string): bigint {
  if (part.modality === 1 || part.modality === 2) {
    const open = (part.dates ?? [])
      .filter((entry) => entry.date >= payDate)
      .sort((a, b) => a.date.localeCompare(b.date))[0];
    return open ? valueOrPercent(open, base) : 0n;
  }
  const daysAhead = BigInt(daysBetween(payDate, dueDate));
  if (part.modality === 3) return BigInt(part.value_minor ?? '0') * daysAhead;
  return percentOf(base, part.percent ?? '0.00', daysAhead);
}

/** The amount due when paid on `payDate` (YYYY-MM-DD, São Paulo), part by part. */
export function amountDue(charge: DueCharge, payDate: string): AmountDue {
  const base = charge.nominalMinor;
  const late = daysBetween(charge.dueDate, payDate);
  const { fine, interest, rebate, discount } = charge.terms;
  const parts = {
    original_minor: base,
    fine_minor: late > 0 && fine ? valueOrPercent(fine, base) : 0n,
    interest_minor: late > 0 && interest ? interestFor(interest, base, BigInt(late)) : 0n,
    rebate_minor: rebate ? valueOrPercent(rebate, base) : 0n,
    discount_minor: late <= 0 && discount ? discountFor(discount, base, payDate, charge.dueDate) : 0n,
  };
  const total =
    parts.original_minor +
    parts.fine_minor +
    parts.interest_minor -
    parts.rebate_minor -
    parts.discount_minor;
  return { total_minor: total > 0n ? total : 0n, ...parts };
}

/** The last day a charge can be paid: validadeAposVencimento days after the due date. */
export function lastPayableDate(dueDate: string, daysValidAfterDue: number): string {
  return new Date(Date.parse(`${dueDate}T00:00:00Z`) + daysValidAfterDue * DAY_MS).toISOString().slice(0, 10);
}
