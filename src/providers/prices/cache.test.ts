import { describe, expect, it } from 'vitest';
import { CachedPriceProvider } from './cache.ts';
import {
  type Price,
  type PriceProvider,
  PriceProviderUnavailableError,
  UnknownSymbolError,
} from './provider.ts';

const start = Date.parse('2025-06-02T12:00:00Z');

function setup(options: { ttlMs?: number; maxAgeMs?: number } = {}) {
  const clock = { at: start, now: () => new Date(clock.at) };
  const price = (symbol: 'USDT' | 'USDC', asOf = clock.now()): Price => ({
    symbol,
    currency: 'BRL',
    bid: '5.39',
    ask: '5.41',
    mid: '5.4',
    as_of: asOf,
    source: 'fake',
  });
  const source = {
    name: 'fake',
    calls: 0,
    /** What the next calls answer; a function so a test can hold the answer back. */
    answer: (): Promise<Price[]> => Promise.resolve([price('USDT'), price('USDC')]),
    getPrices(): Promise<Price[]> {
      source.calls++;
      return source.answer();
    },
  } satisfies PriceProvider & Record<string, unknown>;
  const cache = new CachedPriceProvider(source, { clock, ...options });
  return { clock, price, source, cache };
}

const down = () => Promise.reject(new PriceProviderUnavailableError('timeout', 'fake timed out'));

async function reasonOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PriceProviderUnavailableError);
  return (error as PriceProviderUnavailableError).reason;
}

describe('price cache', () => {
  it('serves concurrent callers from one in-flight request', async () => {
    const { source, cache, price } = setup();
    let release!: (prices: Price[]) => void;
    source.answer = () =>
      new Promise((resolve) => {
        release = resolve;
      });
    const callers = Array.from({ length: 50 }, (_, i) => cache.getPrices(i % 3 === 0 ? ['USDC'] : undefined));
    expect(source.calls).toBe(1);
    release([price('USDT'), price('USDC')]);
    const answers = await Promise.all(callers);
    expect(answers[0]!.map((p) => p.symbol)).toEqual(['USDC']);
    expect(answers[1]!.map((p) => p.symbol)).toEqual(['USDT', 'USDC']);
    expect(source.calls).toBe(1);
  });

  it('refetches once the TTL has passed, not before', async () => {
    const { source, cache, clock } = setup({ ttlMs: 5000 });
    await cache.getPrices();
    clock.at += 4999;
    await cache.getPrices(['USDT']);
    expect(source.calls).toBe(1);
    clock.at += 1;
    await cache.getPrices();
    expect(source.calls).toBe(2);
  });

  it('refuses a TTL above 5 s', () => {
    expect(() => setup({ ttlMs: 5001 })).toThrow(RangeError);
  });

  it('refuses unknown symbols before asking the source', async () => {
    const { source, cache } = setup();
    await expect(cache.getPrices(['USDT', 'EUR'])).rejects.toBeInstanceOf(UnknownSymbolError);
    expect(source.calls).toBe(0);
  });

  it('refuses prices older than 60 s from the source itself as stale', async () => {
    const { source, cache, clock, price } = setup();
    source.answer = async () => [price('USDT', new Date(clock.at - 60_001)), price('USDC')];
    expect(await reasonOf(cache.getPrices(['USDT']))).toBe('stale');
    expect(await cache.getPrices(['USDC'])).toHaveLength(1);
    clock.at += 5000;
    source.answer = async () => [price('USDT', new Date(clock.at - 60_000)), price('USDC')];
    expect(await cache.getPrices(['USDT'])).toHaveLength(1);
    expect(source.calls).toBe(2);
  });

  it('keeps serving the last good prices while the source is down, until they are 60 s old', async () => {
    const { source, cache, clock } = setup();
    await cache.getPrices();
    source.answer = down;
    clock.at += 30_000;
    expect((await cache.getPrices())[0]!.as_of.getTime()).toBe(start);
    clock.at += 30_000;
    expect(await cache.getPrices()).toHaveLength(2);
    clock.at += 1;
    const error = await cache.getPrices().catch((failure: PriceProviderUnavailableError) => failure);
    expect(error).toBeInstanceOf(PriceProviderUnavailableError);
    expect((error as PriceProviderUnavailableError).reason).toBe('stale');
    expect((error as Error).message).toContain('fake timed out');
    expect(source.calls).toBe(4);
  });

  it('passes the first failure on, and tries again on the next call', async () => {
    const { source, cache } = setup();
    source.answer = down;
    expect(await reasonOf(cache.getPrices())).toBe('timeout');
    source.answer = async () => [];
    expect(await reasonOf(cache.getPrices())).toBe('malformed');
    expect(source.calls).toBe(2);
  });

  it('does not hide an unexpected error behind old prices', async () => {
    const { source, cache, clock } = setup();
    await cache.getPrices();
    source.answer = () => Promise.reject(new TypeError('bug'));
    clock.at += 5000;
    await expect(cache.getPrices()).rejects.toThrow(TypeError);
  });
});
