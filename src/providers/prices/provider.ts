/** The stablecoins the service prices, each against BRL. */
export const PRICE_SYMBOLS = ['USDT', 'USDC'] as const;
export type PriceSymbol = (typeof PRICE_SYMBOLS)[number];

/** One stablecoin's price in BRL: decimal strings of BRL per one unit, never JS numbers. */
export interface Price {
  symbol: PriceSymbol;
  currency: 'BRL';
  bid: string;
  ask: string;
  mid: string;
  /** When the source saw this price (for a source without timestamps: when it was received). */
  as_of: Date;
  source: string;
}

/** A source of stablecoin prices. Symbols omitted means every symbol in PRICE_SYMBOLS. */
export interface PriceProvider {
  readonly name: string;
  getPrices(symbols?: readonly string[]): Promise<Price[]>;
}

export interface PriceClock {
  now(): Date;
}

export type UnavailableReason = 'timeout' | 'network' | 'http_status' | 'malformed' | 'stale';

/**
 * The price source cannot be used now: down, slow, answering garbage, or its prices too old.
 * A route answers 503 provider_unavailable.
 */
export class PriceProviderUnavailableError extends Error {
  readonly code = 'provider_unavailable';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PriceProviderUnavailableError';
  }
}

/** The caller asked for a symbol the service does not price: a route answers 400. */
export class UnknownSymbolError extends Error {
  readonly code = 'invalid_request';
  constructor(readonly symbols: string[]) {
    super(`Unknown price symbol(s): ${symbols.join(', ')}; use ${PRICE_SYMBOLS.join(', ')}.`);
    this.name = 'UnknownSymbolError';
  }
}

export const isPriceSymbol = (value: unknown): value is PriceSymbol =>
  typeof value === 'string' && (PRICE_SYMBOLS as readonly string[]).includes(value);

/**
 * The symbols asked for, deduplicated in PRICE_SYMBOLS order; omitted or empty means all.
 * Symbols are case-sensitive upper case, as the currency codes are.
 */
export function resolveSymbols(symbols?: readonly string[]): PriceSymbol[] {
  if (symbols === undefined || symbols.length === 0) return [...PRICE_SYMBOLS];
  const unknown = symbols.filter((symbol) => !isPriceSymbol(symbol));
  if (unknown.length > 0) throw new UnknownSymbolError([...new Set(unknown)]);
  return PRICE_SYMBOLS.filter((symbol) => symbols.includes(symbol));
}
