import { canonicalPrice, midOf, PriceDecimal } from './decimal.ts';
import {
  type Price,
  type PriceClock,
  type PriceProvider,
  PriceProviderUnavailableError,
  type PriceSymbol,
  resolveSymbols,
} from './provider.ts';

/** Binance's documented base URL for public market data only (rest-api.md, faqs/market_data_only.md). */
export const BINANCE_DEFAULT_URL = 'https://data-api.binance.vision';
export const DEFAULT_PRICE_TIMEOUT_MS = 2000;

/** Binance spot market of each stablecoin against BRL. */
export const BINANCE_SYMBOLS: Record<PriceSymbol, string> = { USDT: 'USDTBRL', USDC: 'USDCBRL' };

export interface BinancePriceOptions {
  clock: PriceClock;
  /** Scheme, host and optional path prefix; tests point it at a local fake. */
  baseUrl?: string;
  /** Covers the whole exchange, headers and body (default 2000 ms). */
  timeoutMs?: number;
}

/**
 * Best bid and ask from Binance's public spot REST API, `GET /api/v3/ticker/bookTicker` with a
 * `symbols` list (docs/prices.md). No key needed. The response carries no timestamp (the book is
 * served from memory), so as_of is when the answer arrived.
 */
export class BinancePriceProvider implements PriceProvider {
  readonly name = 'binance';
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: BinancePriceOptions) {
    this.baseUrl = (options.baseUrl ?? BINANCE_DEFAULT_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_PRICE_TIMEOUT_MS;
    if (!Number.isInteger(this.timeoutMs) || this.timeoutMs <= 0) {
      throw new RangeError(`timeoutMs must be a positive whole number, got ${this.timeoutMs}`);
    }
  }

  async getPrices(symbols?: readonly string[]): Promise<Price[]> {
    const wanted = resolveSymbols(symbols);
    const url = new URL(`${this.baseUrl}/api/v3/ticker/bookTicker`);
    url.searchParams.set('symbols', JSON.stringify(wanted.map((symbol) => BINANCE_SYMBOLS[symbol])));
    const signal = AbortSignal.timeout(this.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw signal.aborted
        ? new PriceProviderUnavailableError('timeout', `Binance did not answer within ${this.timeoutMs} ms`, {
            cause: error,
          })
        : new PriceProviderUnavailableError('network', 'Binance could not be reached', { cause: error });
    }
    if (status < 200 || status > 299) {
      throw new PriceProviderUnavailableError('http_status', `Binance answered ${status}${errorOf(text)}`);
    }
    const asOf = this.options.clock.now();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw malformed('the body is not JSON');
    }
    if (!Array.isArray(body)) throw malformed('the body is not an array of book tickers');
    return wanted.map((symbol) => toPrice(symbol, body as unknown[], asOf));
  }
}

const malformed = (why: string) =>
  new PriceProviderUnavailableError('malformed', `Binance book ticker unusable: ${why}`);

function toPrice(symbol: PriceSymbol, tickers: unknown[], asOf: Date): Price {
  const market = BINANCE_SYMBOLS[symbol];
  const ticker = tickers.find(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && (entry as { symbol?: unknown }).symbol === market,
  );
  if (!ticker) throw malformed(`no ${market} in the answer`);
  // An empty side of the book prints as "0.00000000": there is no price to quote from.
  const bid = canonicalPrice(ticker.bidPrice);
  const ask = canonicalPrice(ticker.askPrice);
  if (!bid || !ask) throw malformed(`${market} bidPrice/askPrice are not positive decimal strings`);
  if (new PriceDecimal(bid).gt(ask)) throw malformed(`${market} bid ${bid} is above ask ${ask}`);
  return { symbol, currency: 'BRL', bid, ask, mid: midOf(bid, ask), as_of: asOf, source: 'binance' };
}

/** Binance's documented error payload {"code": -1121, "msg": "Invalid symbol."}, for the message. */
function errorOf(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: unknown; msg?: unknown };
    if (typeof body.code === 'number' && typeof body.msg === 'string') {
      return ` (code ${body.code}: ${body.msg.slice(0, 200)})`;
    }
  } catch {}
  return '';
}
