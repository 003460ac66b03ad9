import {
  type Price,
  type PriceClock,
  type PriceProvider,
  PriceProviderUnavailableError,
  resolveSymbols,
} from './provider.ts';

export const DEFAULT_PRICE_TTL_MS = 5000;
export const DEFAULT_PRICE_MAX_AGE_MS = 60_000;

export interface PriceCacheOptions {
  clock: PriceClock;
  /** How long one answer of the source serves every caller (default 5000 ms, at most 5000). */
  ttlMs?: number;
  /** Prices whose as_of is older than this are refused (default 60000 ms). */
  maxAgeMs?: number;
}

interface Entry {
  prices: Price[];
  fetchedAt: number;
}

/**
 * Puts one source behind a short cache so a burst of quotes costs one upstream request: callers
 * arriving while a refresh is in flight wait for that same refresh. When a refresh fails, the
 * last good prices keep serving until they are maxAgeMs old; after that every call is refused as
 * stale, so a quote is never priced from a market older than a minute.
 */
export class CachedPriceProvider implements PriceProvider {
  readonly name: string;
  private readonly ttlMs: number;
  private readonly maxAgeMs: number;
  private entry?: Entry;
  private inFlight?: Promise<Price[]>;
  /** Why the last refresh failed while older prices kept serving: the cause of a stale refusal. */
  private lastFailure?: PriceProviderUnavailableError;

  constructor(
    private readonly source: PriceProvider,
    private readonly options: PriceCacheOptions,
  ) {
    this.name = source.name;
    this.ttlMs = options.ttlMs ?? DEFAULT_PRICE_TTL_MS;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_PRICE_MAX_AGE_MS;
    if (!Number.isInteger(this.ttlMs) || this.ttlMs < 0 || this.ttlMs > DEFAULT_PRICE_TTL_MS) {
      throw new RangeError(
        `ttlMs must be a whole number from 0 to ${DEFAULT_PRICE_TTL_MS}, got ${this.ttlMs}`,
      );
    }
    if (!Number.isInteger(this.maxAgeMs) || this.maxAgeMs <= 0) {
      throw new RangeError(`maxAgeMs must be a positive whole number, got ${this.maxAgeMs}`);
    }
  }

  async getPrices(symbols?: readonly string[]): Promise<Price[]> {
    const wanted = resolveSymbols(symbols);
    const all = await this.current();
    const now = this.options.clock.now().getTime();
    return wanted.map((symbol) => {
      const price = all.find((candidate) => candidate.symbol === symbol);
      if (!price) {
        throw new PriceProviderUnavailableError('malformed', `${this.name} gave no price for ${symbol}`);
      }
      if (now - price.as_of.getTime() > this.maxAgeMs) {
        const failure = this.lastFailure ? `; last refresh: ${this.lastFailure.message}` : '';
        throw new PriceProviderUnavailableError(
          'stale',
          `${this.name} ${symbol} price is from ${price.as_of.toISOString()}, older than ${this.maxAgeMs} ms${failure}`,
          { cause: this.lastFailure },
        );
      }
      return price;
    });
  }

  private current(): Promise<Price[]> {
    const now = this.options.clock.now().getTime();
    if (this.entry && now - this.entry.fetchedAt < this.ttlMs) return Promise.resolve(this.entry.prices);
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Always asks the source for every symbol, so callers asking for different subsets share it. */
  private async refresh(): Promise<Price[]> {
    try {
      const prices = await this.source.getPrices();
      this.entry = { prices, fetchedAt: this.options.clock.now().getTime() };
      this.lastFailure = undefined;
      return prices;
    } catch (error) {
      // The age check in getPrices decides whether the last good prices may still serve.
      if (this.entry && error instanceof PriceProviderUnavailableError) {
        this.lastFailure = error;
        return this.entry.prices;
      }
      throw error;
    }
  }
}
