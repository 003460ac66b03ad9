import type { Environment } from '../../platform/context.ts';
import { AppError, type ErrorDetail } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import {
  type Price,
  PriceProviderUnavailableError,
  UnknownSymbolError,
} from '../../providers/prices/index.ts';
import { QuoteMathError, type QuoteRefusal } from './quote-math.ts';
import type { PriceView } from './schemas.ts';

const FIELD_OF: Partial<Record<QuoteRefusal, string>> = {
  invalid_amount: 'body.base_amount_minor',
  below_minimum: 'body.base_amount_minor',
  same_currency: 'body.quote_currency',
  unsupported_pair: 'body.quote_currency',
};

/**
 * The one place the price provider's and the quote arithmetic's errors become API errors:
 * an unreachable or stale source is 503 provider_unavailable, an unknown symbol 400 invalid_request,
 * a refused quote the code QuoteMathError carries. Anything else passes through untouched.
 */
export function toApiError(error: unknown): unknown {
  if (error instanceof PriceProviderUnavailableError) {
    return new AppError('provider_unavailable', 'Prices are unavailable right now; try again shortly.');
  }
  if (error instanceof UnknownSymbolError) {
    return new AppError('invalid_request', error.message, [
      { field: 'querystring.symbols', issue: `unknown: ${error.symbols.join(', ')}` },
    ]);
  }
  if (error instanceof QuoteMathError) {
    const field = FIELD_OF[error.reason];
    const details: ErrorDetail[] | undefined = field ? [{ field, issue: error.reason }] : undefined;
    return new AppError(error.code, error.message, details);
  }
  return error;
}

/** Runs `fn`, answering its provider or arithmetic errors as API errors. */
export async function translated<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toApiError(error);
  }
}

/** Current prices of an environment's source (503 when it has none, or it is down). */
export function fetchPrices(
  ctx: Ctx,
  environment: Environment,
  symbols?: readonly string[],
): Promise<Price[]> {
  return translated(() => ctx.deps.providers.get('prices', environment).getPrices(symbols));
}

export const priceView = (price: Price): PriceView => ({
  symbol: price.symbol,
  price: price.mid,
  currency: price.currency,
  as_of: price.as_of.toISOString(),
});

/** GET /prices: `symbols` is a comma-separated list; omitted or empty means every symbol priced. */
export async function listPrices(ctx: Ctx, query: { symbols?: string }): Promise<PriceView[]> {
  const symbols = query.symbols
    ?.split(',')
    .map((symbol) => symbol.trim())
    .filter((symbol) => symbol !== '');
  const prices = await fetchPrices(ctx, ctx.caller.environment, symbols);
  return prices.map(priceView);
}
