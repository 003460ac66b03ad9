import { BinancePriceProvider } from './binance.ts';
import { CachedPriceProvider } from './cache.ts';
import type { PriceConfig } from './config.ts';
import type { PriceClock, PriceProvider } from './provider.ts';
import { SandboxPriceProvider } from './sandbox.ts';

export * from './provider.ts';

/** Price sources per environment, each behind the cache. Live is undefined unless configured. */
export interface PriceProviders {
  sandbox: PriceProvider;
  live: PriceProvider | undefined;
}

export function createPriceProviders(config: PriceConfig, clock: PriceClock): PriceProviders {
  const cached = (source: PriceProvider) =>
    new CachedPriceProvider(source, { clock, ttlMs: config.cacheTtlMs, maxAgeMs: config.maxAgeMs });
  const walk = config.sandboxWalkSeed === undefined ? false : { seed: config.sandboxWalkSeed };
  return {
    sandbox: cached(new SandboxPriceProvider({ clock, mid: config.sandboxMid, walk })),
    live:
      config.liveSource === 'binance'
        ? cached(new BinancePriceProvider({ clock, baseUrl: config.binanceUrl, timeoutMs: config.timeoutMs }))
        : undefined,
  };
}
