import { AppError } from '../platform/errors.ts';

/**
 * The currency table. Amounts are always bigint minor units inside the service and strings of
 * integer minor units on the wire; a JS number never carries money.
 */
export const CURRENCIES = {
  BRL: { code: 'BRL', scale: 2 },
  USDT: { code: 'USDT', scale: 6 },
  USDC: { code: 'USDC', scale: 6 },
} as const;

export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];

/** Write-side amount pattern of the spec. */
export const AMOUNT_PATTERN = /^[0-9]{1,16}$/;

export const isCurrency = (code: unknown): code is Currency =>
  typeof code === 'string' && Object.hasOwn(CURRENCIES, code);

/** The currency of a wire code, or 400 unsupported_currency. */
export function currencyOf(code: string, field = 'body.currency'): Currency {
  if (isCurrency(code)) return code;
  throw new AppError(
    'unsupported_currency',
    `Currency "${code}" is not supported; use one of ${CURRENCY_CODES.join(', ')}.`,
    [{ field, issue: `must be one of ${CURRENCY_CODES.join(', ')}` }],
  );
}

export const scaleOf = (currency: Currency): number => CURRENCIES[currency].scale;

/**
 * A wire amount (string of 1..16 digits) as bigint minor units. "0" is refused unless allowZero:
 * both failures are 400 invalid_amount.
 */
export function parseAmount(wire: unknown, options: { field?: string; allowZero?: boolean } = {}): bigint {
  const field = options.field ?? 'body.amount_minor';
  if (typeof wire !== 'string' || !AMOUNT_PATTERN.test(wire)) {
    throw new AppError('invalid_amount', `${field} must be a string of 1 to 16 digits.`, [
      { field, issue: 'must match ^[0-9]{1,16}$' },
    ]);
  }
  const value = BigInt(wire);
  if (value === 0n && !options.allowZero) {
    throw new AppError('invalid_amount', `${field} must be greater than zero.`, [
      { field, issue: 'must be greater than zero' },
    ]);
  }
  return value;
}

/** bigint minor units as the wire string. */
export const formatAmount = (minor: bigint): string => minor.toString();

/** Minor units as a decimal string in major units: 1050n BRL → "10.50", -5n BRL → "-0.05". */
export function toDecimal(minor: bigint, currency: Currency): string {
  const scale = scaleOf(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/**
 * A decimal string in major units as minor units: "10.5" BRL → 1050n. More fraction digits than the
 * currency's scale is an error, never a silent rounding.
 */
export function fromDecimal(decimal: string, currency: Currency): bigint {
  const scale = scaleOf(currency);
  const match = DECIMAL.exec(decimal);
  if (!match) throw new AppError('invalid_amount', `"${decimal}" is not a decimal amount.`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) {
    throw new AppError('invalid_amount', `${currency} has ${scale} decimal places; "${decimal}" has more.`);
  }
  const minor = BigInt(whole! + fraction.padEnd(scale, '0'));
  return sign === '-' ? -minor : minor;
}
