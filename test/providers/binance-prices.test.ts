import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BinancePriceProvider } from '../../src/providers/prices/binance.ts';
import { CachedPriceProvider } from '../../src/providers/prices/cache.ts';
import {
  PriceProviderUnavailableError,
  type UnavailableReason,
  UnknownSymbolError,
} from '../../src/providers/prices/provider.ts';
import { json, startFakeBinance } from './fake-binance.ts';

const clock = { at: Date.parse('2025-06-02T12:00:00Z'), now: () => new Date(clock.at) };
let fake: Awaited<ReturnType<typeof startFakeBinance>>;
const provider = (timeoutMs = 2000) => new BinancePriceProvider({ clock, baseUrl: fake.url, timeoutMs });

async function refusal(promise: Promise<unknown>): Promise<{ reason: UnavailableReason; message: string }> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PriceProviderUnavailableError);
  return error as PriceProviderUnavailableError;
}

beforeEach(async () => {
  fake = await startFakeBinance();
});
afterEach(async () => {
  await fake.close();
});

describe('Binance book ticker adapter', () => {
  it('reads best bid and ask as decimal strings, mid between them, as_of from the clock', async () => {
    const prices = await provider().getPrices();
    expect(prices).toEqual([
      {
        symbol: 'USDT',
        currency: 'BRL',
        bid: '5.398',
        ask: '5.401',
        mid: '5.3995',
        as_of: clock.now(),
        source: 'binance',
      },
      {
        symbol: 'USDC',
        currency: 'BRL',
        bid: '5.395',
        ask: '5.405',
        mid: '5.4',
        as_of: clock.now(),
        source: 'binance',
      },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.pathname).toBe('/api/v3/ticker/bookTicker');
    expect(fake.requests[0]!.searchParams.get('symbols')).toBe('["USDTBRL","USDCBRL"]');
  });

  it('asks only for the symbols wanted, and refuses unknown ones without a request', async () => {
    const prices = await provider().getPrices(['USDC']);
    expect(prices.map((price) => price.symbol)).toEqual(['USDC']);
    expect(fake.requests[0]!.searchParams.get('symbols')).toBe('["USDCBRL"]');
    await expect(provider().getPrices(['USDC', 'BTC'])).rejects.toBeInstanceOf(UnknownSymbolError);
    expect(fake.requests).toHaveLength(1);
  });

  it('keeps extra digits exactly, never through a JS number', async () => {
    fake.handler = (_request, response) =>
      json(response, 200, [
        {
          symbol: 'USDTBRL',
          bidPrice: '5.12345678901234567',
          bidQty: '1',
          askPrice: '5.12345678901234569',
          askQty: '1',
        },
      ]);
    const [price] = await provider().getPrices(['USDT']);
    expect(price).toMatchObject({
      bid: '5.12345678901234567',
      ask: '5.12345678901234569',
      mid: '5.12345678901234568',
    });
  });

  it('turns the documented error payload into provider_unavailable', async () => {
    fake.handler = (_request, response) => json(response, 400, { code: -1121, msg: 'Invalid symbol.' });
    const error = await refusal(provider().getPrices());
    expect(error.reason).toBe('http_status');
    expect(error.message).toContain('400');
    expect(error.message).toContain('-1121');
  });

  it.each([
    [429, '{"code":-1003,"msg":"Too many requests."}'],
    [418, '{"code":-1003,"msg":"Way too many requests; IP banned."}'],
    [403, '<html>WAF</html>'],
    [503, ''],
  ])('answers %i as provider_unavailable', async (status, body) => {
    fake.handler = (_request, response) => {
      response.writeHead(status);
      response.end(body);
    };
    expect((await refusal(provider().getPrices())).reason).toBe('http_status');
  });

  it.each([
    ['not JSON', 'Service Unavailable'],
    ['an object, not an array', '{"symbol":"USDTBRL","bidPrice":"5.4","askPrice":"5.41"}'],
    ['a missing symbol', '[{"symbol":"USDTBRL","bidPrice":"5.4","askPrice":"5.41"}]'],
    [
      'numbers for prices',
      '[{"symbol":"USDTBRL","bidPrice":5.4,"askPrice":5.41},{"symbol":"USDCBRL","bidPrice":5.4,"askPrice":5.41}]',
    ],
    [
      'an empty book side',
      '[{"symbol":"USDTBRL","bidPrice":"0.00000000","askPrice":"5.41"},{"symbol":"USDCBRL","bidPrice":"5.4","askPrice":"5.41"}]',
    ],
    [
      'exponent notation',
      '[{"symbol":"USDTBRL","bidPrice":"5.4e0","askPrice":"5.41"},{"symbol":"USDCBRL","bidPrice":"5.4","askPrice":"5.41"}]',
    ],
    [
      'a crossed book',
      '[{"symbol":"USDTBRL","bidPrice":"5.42","askPrice":"5.41"},{"symbol":"USDCBRL","bidPrice":"5.4","askPrice":"5.41"}]',
    ],
    ['null entries', '[null,{"symbol":"USDCBRL","bidPrice":"5.4","askPrice":"5.41"}]'],
  ])('refuses a 200 with %s as malformed', async (_case, body) => {
    fake.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    };
    expect((await refusal(provider().getPrices())).reason).toBe('malformed');
  });

  it('aborts when the server never answers', { timeout: 10_000 }, async () => {
    fake.handler = () => {};
    const error = await refusal(provider(200).getPrices());
    expect(error.reason).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('aborts when the headers come but the body never ends', { timeout: 10_000 }, async () => {
    fake.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[{"symbol":"USDTBRL",');
    };
    expect((await refusal(provider(200).getPrices())).reason).toBe('timeout');
  });

  it('answers a refused connection as provider_unavailable', async () => {
    const url = fake.url;
    await fake.close();
    const error = await refusal(new BinancePriceProvider({ clock, baseUrl: url }).getPrices());
    expect(error.reason).toBe('network');
    fake = await startFakeBinance();
  });

  it('behind the cache, a burst costs one request and the TTL a second one', async () => {
    const cached = new CachedPriceProvider(provider(), { clock, ttlMs: 5000 });
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) => cached.getPrices(i % 2 ? ['USDT'] : undefined)),
    );
    expect(burst.every((prices) => prices[0]!.mid === '5.3995')).toBe(true);
    expect(fake.requests).toHaveLength(1);
    clock.at += 4999;
    await cached.getPrices();
    expect(fake.requests).toHaveLength(1);
    clock.at += 1;
    await Promise.all([cached.getPrices(), cached.getPrices(['USDC'])]);
    expect(fake.requests).toHaveLength(2);
  });
});
