/** Money as the API gives it (integer minor units in a string) shown and read in the person's locale. */
export const SCALES: Record<string, number> = { BRL: 2, USDT: 6, USDC: 6 };
export const CURRENCIES = Object.keys(SCALES);

const scaleOf = (currency: string) => SCALES[currency] ?? 2;

function separators(locale: string) {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

/** "R$ 1.234,56" in pt-BR, "R$1,234.56" in English; crypto amounts as "12,500000 USDT". Exact: bigint only. */
export function formatMoney(minor: string | bigint, currency: string, locale: string): string {
  const scale = scaleOf(currency);
  const value = typeof minor === 'bigint' ? minor : BigInt(minor);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const unit = 10n ** BigInt(scale);
  const whole = new Intl.NumberFormat(locale).format(abs / unit);
  const fraction = scale ? separators(locale).decimal + (abs % unit).toString().padStart(scale, '0') : '';
  const number = `${negative ? '−' : ''}${whole}${fraction}`;
  if (currency !== 'BRL') return `${number} ${currency}`;
  return locale.startsWith('pt') ? `R$ ${number}` : `R$${number}`;
}

/** The amount as a plain decimal ("1250.00"), for files other programs read. */
export function decimalString(minor: string, currency: string): string {
  const scale = scaleOf(currency);
  const value = BigInt(minor);
  const abs = value < 0n ? -value : value;
  const unit = 10n ** BigInt(scale);
  const fraction = scale ? `.${(abs % unit).toString().padStart(scale, '0')}` : '';
  return `${value < 0n ? '-' : ''}${abs / unit}${fraction}`;
}

/** Reads "1.234,56" (pt-BR) or "1,234.56" (English) into minor units; null when it is not an amount. */
export function parseMoney(text: string, currency: string, locale: string): string | null {
  const scale = scaleOf(currency);
  const { group, decimal } = separators(locale);
  const cleaned = text
    .trim()
    .replace(/^R\$\s*/, '')
    .replace(/\s/g, '');
  const [grouped = '', fraction = '', ...rest] = cleaned.split(decimal);
  // Separators only between groups of three: "49.90" in pt-BR is a typo, not R$ 4.990,00.
  const groups = grouped.split(group);
  if (groups.length > 1 && !groups.every((part, i) => (i === 0 ? /^\d{1,3}$/ : /^\d{3}$/).test(part)))
    return null;
  const whole = groups.join('');
  if (rest.length || !/^\d*$/.test(whole) || !/^\d*$/.test(fraction) || !(whole || fraction)) return null;
  if (fraction.length > scale) return null;
  const minor = BigInt(whole || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return minor.toString();
}

export const formatDate = (iso: string | null | undefined, locale: string): string =>
  iso ? new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'medium' }) : '—';

/** A calendar day the API writes as YYYY-MM-DD ("2026-12-10"), as the locale writes it: 10/12/2026. */
export function formatDay(day: string | null | undefined, locale: string): string {
  if (!day) return '—';
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString(locale, { timeZone: 'UTC' });
}
