import { canonicalPrice, PriceDecimal } from './decimal.ts';
import {
  PRICE_SYMBOLS,
  type Price,
  type PriceClock,
  type PriceProvider,
  type PriceSymbol,
  resolveSymbols,
} from './provider.ts';

export interface SandboxWalk {
  /** Same seed, same sequence of prices: tests can assert on them. */
  seed: number;
  /** Largest move of the mid per getPrices call, in basis points (default 2). */
  maxStepBps?: number;
  /** The mid never strays further than this from its configured value, in basis points (default 50). */
  maxDriftBps?: number;
}

export interface SandboxPriceOptions {
  clock: PriceClock;
  /** BRL per unit; one value for both symbols or one per symbol (default '5.40'). */
  mid?: string | Partial<Record<PriceSymbol, string>>;
  /** Half the book's width either side of the mid, in basis points (default 5). */
  halfSpreadBps?: number;
  /** Off unless given: a fixed mid makes sandbox quotes predictable. */
  walk?: SandboxWalk | false;
}

export const SANDBOX_DEFAULT_MID = '5.40';
/** Sandbox prices are printed to 8 decimal places, as exchanges print BRL books. */
const PLACES = 8;

/** A small seedable PRNG (mulberry32): deterministic, and good enough for a price wiggle. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bps = (name: string, value: number, max: number): number => {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be a whole number of basis points from 0 to ${max}, got ${value}`);
  }
  return value;
};

/**
 * Prices for the sandbox: USDT/BRL and USDC/BRL around a configured mid, stamped with the clock's
 * now, optionally moving by a bounded random walk (one step per call).
 */
export class SandboxPriceProvider implements PriceProvider {
  readonly name = 'sandbox';
  private readonly mids: Record<PriceSymbol, string>;
  private readonly halfSpreadBps: number;
  private readonly offsets: Record<PriceSymbol, number> = { USDT: 0, USDC: 0 };
  private readonly walk?: { next: () => number; maxStep: number; maxDrift: number };

  constructor(private readonly options: SandboxPriceOptions) {
    const mid = options.mid ?? SANDBOX_DEFAULT_MID;
    const perSymbol = typeof mid === 'string' ? { USDT: mid, USDC: mid } : mid;
    const mids = {} as Record<PriceSymbol, string>;
    for (const symbol of PRICE_SYMBOLS) {
      const raw = perSymbol[symbol] ?? SANDBOX_DEFAULT_MID;
      const canonical = canonicalPrice(raw);
      if (!canonical || new PriceDecimal(canonical).lt('0.0001')) {
        throw new RangeError(`sandbox mid for ${symbol} must be a decimal of at least 0.0001, got "${raw}"`);
      }
      mids[symbol] = canonical;
    }
    this.mids = mids;
    this.halfSpreadBps = bps('halfSpreadBps', options.halfSpreadBps ?? 5, 1000);
    if (options.walk) {
      const maxDrift = bps('maxDriftBps', options.walk.maxDriftBps ?? 50, 1000);
      this.walk = {
        next: mulberry32(options.walk.seed),
        maxStep: bps('maxStepBps', options.walk.maxStepBps ?? 2, maxDrift),
        maxDrift,
      };
    }
  }

  async getPrices(symbols?: readonly string[]): Promise<Price[]> {
    const wanted = resolveSymbols(symbols);
    const asOf = this.options.clock.now();
    // Every symbol steps on every call, asked for or not, so a seed gives one sequence per symbol.
    if (this.walk) for (const symbol of PRICE_SYMBOLS) this.step(symbol);
    return wanted.map((symbol) => this.price(symbol, asOf));
  }

  private step(symbol: PriceSymbol) {
    const walk = this.walk!;
    const move = Math.floor(walk.next() * (2 * walk.maxStep + 1)) - walk.maxStep;
    this.offsets[symbol] = Math.max(-walk.maxDrift, Math.min(walk.maxDrift, this.offsets[symbol] + move));
  }

  private price(symbol: PriceSymbol, asOf: Date): Price {
    const mid = new PriceDecimal(this.mids[symbol])
      .times(10_000 + this.offsets[symbol])
      .div(10_000)
      .toDecimalPlaces(PLACES);
    const half = mid.times(this.halfSpreadBps).div(10_000).toDecimalPlaces(PLACES);
    return {
      symbol,
      currency: 'BRL',
      bid: mid.minus(half).toFixed(),
      ask: mid.plus(half).toFixed(),
      mid: mid.toFixed(),
      as_of: asOf,
      source: 'sandbox',
    };
  }
}
