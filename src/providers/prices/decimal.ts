import { Decimal } from 'decimal.js';

/** Enough precision that no price arithmetic here ever rounds before the final step. */
export const PriceDecimal = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN });

/** A plain non-negative decimal as providers print it: digits, an optional fraction, no exponent. */
const PLAIN_DECIMAL = /^[0-9]{1,20}(?:\.[0-9]{1,20})?$/;

/** A price string as a canonical decimal string ("5.40100000" → "5.401"), or undefined if not one. */
export function canonicalPrice(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !PLAIN_DECIMAL.test(raw)) return undefined;
  const value = new PriceDecimal(raw);
  return value.isZero() ? undefined : value.toFixed();
}

/** The mid of a bid and an ask: exact, since halving a finite decimal adds one digit at most. */
export const midOf = (bid: string, ask: string): string => new PriceDecimal(bid).plus(ask).div(2).toFixed();
