import { Decimal } from 'decimal.js';
import { type Currency, isCurrency, scaleOf } from '../../ledger/currency.ts';

/** Rates are cut (never rounded up) to this many decimal places: docs/rfq.md. */
export const RATE_DECIMALS = 10;
const RATE_UNIT = 10n ** BigInt(RATE_DECIMALS);
const BPS = 10_000;

/** Wide enough that the only rounding is the explicit cut to RATE_DECIMALS, itself downwards. */
const RateDecimal = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN });
const PRICE = /^[0-9]{1,20}(?:\.[0-9]{1,20})?$/;

export type QuoteRefusal =
  | 'unsupported_currency'
  | 'same_currency'
  | 'unsupported_pair'
  | 'invalid_amount'
  | 'invalid_price'
  | 'invalid_pricing'
  | 'below_minimum';

/** Why a quote cannot be made; `code` is the API error code a route answers with. */
export class QuoteMathError extends Error {
  constructor(
    readonly code: 'unsupported_currency' | 'invalid_request' | 'invalid_amount',
    readonly reason: QuoteRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'QuoteMathError';
  }
}

export interface QuoteInput {
  baseCurrency: string;
  quoteCurrency: string;
  /** What the caller pays, in minor units of baseCurrency. */
  baseAmountMinor: bigint;
  /** BRL per one unit of the stablecoin on the other side: the price feed's mid, a decimal string. */
  midPrice: string;
  /** The service's spread, taken from the caller's side of the rate. */
  spreadBps: number;
  feeBps: number;
  /** Added to the percentage fee, in minor units of the quote currency. */
  fixedFeeMinor: bigint;
}

export interface QuoteAmounts {
  baseCurrency: Currency;
  quoteCurrency: Currency;
  baseAmountMinor: bigint;
  /** Quote units per base unit after the spread, cut to RATE_DECIMALS places. */
  rate: string;
  /** floor(base × rate) at the currencies' scales, before the fee. */
  grossMinor: bigint;
  feeMinor: bigint;
  feeCurrency: Currency;
  /** What the caller receives: grossMinor − feeMinor, at least 1. */
  quoteAmountMinor: bigint;
}

function wholeBps(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new QuoteMathError(
      'invalid_request',
      'invalid_pricing',
      `${name} must be a whole number 0..${max}.`,
    );
  }
  return value;
}

/** The pair as currencies, or the QuoteMathError a quote of it would fail with (checked before any price is fetched). */
export function pair(base: string, quote: string): [Currency, Currency] {
  for (const code of [base, quote]) {
    if (!isCurrency(code)) {
      throw new QuoteMathError(
        'unsupported_currency',
        'unsupported_currency',
        `Currency "${code}" is not supported.`,
      );
    }
  }
  if (base === quote) {
    throw new QuoteMathError(
      'invalid_request',
      'same_currency',
      'base_currency and quote_currency must differ.',
    );
  }
  // The price feed quotes each stablecoin in BRL, so one side must be BRL.
  if (base !== 'BRL' && quote !== 'BRL') {
    throw new QuoteMathError(
      'invalid_request',
      'unsupported_pair',
      `${base} to ${quote} is not quoted; use BRL.`,
    );
  }
  return [base as Currency, quote as Currency];
}

/**
 * The caller's rate, quote units per base unit, cut down to RATE_DECIMALS places. Selling a
 * stablecoin (base USDT/USDC) pays mid × (1 − spread); buying one (base BRL) costs mid × (1 + spread)
 * BRL per unit, so the rate is its inverse. Either way the caller gets the worse side.
 */
export function rateFor(
  baseCurrency: string,
  quoteCurrency: string,
  midPrice: string,
  spreadBps: number,
): string {
  const [base] = pair(baseCurrency, quoteCurrency);
  const spread = wholeBps('spread_bps', spreadBps, BPS - 1);
  if (!PRICE.test(midPrice) || new RateDecimal(midPrice).isZero()) {
    throw new QuoteMathError(
      'invalid_request',
      'invalid_price',
      `"${midPrice}" is not a positive decimal price.`,
    );
  }
  const mid = new RateDecimal(midPrice);
  const rate =
    base === 'BRL' ? new RateDecimal(BPS).div(mid.times(BPS + spread)) : mid.times(BPS - spread).div(BPS);
  return rate.toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN).toFixed();
}

/** floor(base_minor × rate × 10^(quote_scale − base_scale)), in exact integers. */
export function grossFor(
  baseAmountMinor: bigint,
  rate: string,
  baseCurrency: Currency,
  quoteCurrency: Currency,
) {
  const rateUnits = BigInt(new RateDecimal(rate).times(RATE_UNIT.toString()).toFixed(0));
  const shift = scaleOf(quoteCurrency) - scaleOf(baseCurrency);
  const up = 10n ** BigInt(Math.max(shift, 0));
  const down = RATE_UNIT * 10n ** BigInt(Math.max(-shift, 0));
  return (baseAmountMinor * rateUnits * up) / down;
}

/** ceil(gross × fee_bps / 10000) + fixed_fee_minor: what the service charges rounds up. */
export function feeFor(grossMinor: bigint, feeBps: number, fixedFeeMinor: bigint): bigint {
  const bps = BigInt(wholeBps('fee_bps', feeBps, BPS));
  if (fixedFeeMinor < 0n) {
    throw new QuoteMathError('invalid_request', 'invalid_pricing', 'fixed_fee_minor must not be negative.');
  }
  return (grossMinor * bps + BigInt(BPS - 1)) / BigInt(BPS) + fixedFeeMinor;
}

/** Every number of an RFQ quote. Throws QuoteMathError; never returns a quote paying under 1 minor unit. */
export function computeQuote(input: QuoteInput): QuoteAmounts {
  const [base, quote] = pair(input.baseCurrency, input.quoteCurrency);
  if (input.baseAmountMinor <= 0n) {
    throw new QuoteMathError(
      'invalid_amount',
      'invalid_amount',
      'base_amount_minor must be greater than zero.',
    );
  }
  const rate = rateFor(base, quote, input.midPrice, input.spreadBps);
  const grossMinor = grossFor(input.baseAmountMinor, rate, base, quote);
  const feeMinor = feeFor(grossMinor, input.feeBps, input.fixedFeeMinor);
  const quoteAmountMinor = grossMinor - feeMinor;
  if (quoteAmountMinor < 1n) {
    throw new QuoteMathError(
      'invalid_amount',
      'below_minimum',
      `base_amount_minor ${input.baseAmountMinor} ${base} buys less than one minor unit of ${quote} after fees.`,
    );
  }
  return {
    baseCurrency: base,
    quoteCurrency: quote,
    baseAmountMinor: input.baseAmountMinor,
    rate,
    grossMinor,
    feeMinor,
    feeCurrency: quote,
    quoteAmountMinor,
  };
}
