import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { loadPriceConfig } from './config.ts';
import { createPriceProviders } from './index.ts';

const clock = { now: () => new Date('2025-06-02T12:00:00Z') };

describe('price settings', () => {
  it('default to a fixed sandbox feed at 5.40 and no live source', async () => {
    const config = loadPriceConfig({});
    expect(config).toEqual({
      liveSource: 'none',
      binanceUrl: 'https://data-api.binance.vision',
      timeoutMs: 2000,
      cacheTtlMs: 5000,
      maxAgeMs: 60_000,
      sandboxMid: '5.40',
      sandboxWalkSeed: undefined,
    });
    const providers = createPriceProviders(config, clock);
    expect(providers.live).toBeUndefined();
    expect((await providers.sandbox.getPrices(['USDT']))[0]).toMatchObject({ mid: '5.4', source: 'sandbox' });
  });

  it('configure a live Binance source and a walking sandbox', () => {
    const config = loadPriceConfig({
      PRICES_LIVE_SOURCE: 'binance',
      PRICES_BINANCE_URL: 'http://127.0.0.1:9',
      PRICES_TIMEOUT_MS: '500',
      PRICES_SANDBOX_WALK_SEED: '42',
    });
    expect(config).toMatchObject({ liveSource: 'binance', timeoutMs: 500, sandboxWalkSeed: 42 });
    expect(createPriceProviders(config, clock).live?.name).toBe('binance');
  });

  it.each([
    ['PRICES_LIVE_SOURCE', 'coingecko'],
    ['PRICES_BINANCE_URL', 'ftp://example.com'],
    ['PRICES_BINANCE_URL', 'not a url'],
    ['PRICES_TIMEOUT_MS', '0'],
    ['PRICES_TIMEOUT_MS', '2s'],
    ['PRICES_CACHE_TTL_MS', '5001'],
    ['PRICES_MAX_AGE_MS', '60001'],
    ['PRICES_SANDBOX_MID', '5,40'],
    ['PRICES_SANDBOX_WALK_SEED', '-1'],
  ])('%s=%s stops the start with a ConfigError naming it', (name, value) => {
    const error = (() => {
      try {
        loadPriceConfig({ [name]: value });
      } catch (failure) {
        return failure;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe(name);
  });
});
