import { ConfigError, wholeSetting } from '../../config-error.ts';
import { BINANCE_DEFAULT_URL, DEFAULT_PRICE_TIMEOUT_MS } from './binance.ts';
import { DEFAULT_PRICE_MAX_AGE_MS, DEFAULT_PRICE_TTL_MS } from './cache.ts';
import { canonicalPrice } from './decimal.ts';
import { SANDBOX_DEFAULT_MID } from './sandbox.ts';

/** The price settings, read by src/config.ts with the others (ConfigError names the setting). */
export interface PriceConfig {
  /** Where live prices come from; 'none' makes every live price call 503 provider_unavailable. */
  liveSource: 'none' | 'binance';
  binanceUrl: string;
  timeoutMs: number;
  cacheTtlMs: number;
  maxAgeMs: number;
  sandboxMid: string;
  /** undefined keeps sandbox prices fixed; a seed turns the bounded random walk on. */
  sandboxWalkSeed: number | undefined;
}

type Env = Record<string, string | undefined>;

const whole = wholeSetting;

export function loadPriceConfig(env: Env = process.env): PriceConfig {
  const liveSource = env.PRICES_LIVE_SOURCE || 'none';
  if (liveSource !== 'none' && liveSource !== 'binance') {
    throw new ConfigError('PRICES_LIVE_SOURCE', `must be none or binance, got "${liveSource}"`);
  }
  const binanceUrl = env.PRICES_BINANCE_URL || BINANCE_DEFAULT_URL;
  if (!/^https?:\/\/[^\s]+$/.test(binanceUrl) || !URL.canParse(binanceUrl)) {
    throw new ConfigError('PRICES_BINANCE_URL', 'must be an http:// or https:// URL');
  }
  const sandboxMid = env.PRICES_SANDBOX_MID || SANDBOX_DEFAULT_MID;
  if (!canonicalPrice(sandboxMid)) {
    throw new ConfigError(
      'PRICES_SANDBOX_MID',
      `must be a positive decimal such as 5.40, got "${sandboxMid}"`,
    );
  }
  const seed = env.PRICES_SANDBOX_WALK_SEED;
  return {
    liveSource,
    binanceUrl,
    timeoutMs: whole(env, 'PRICES_TIMEOUT_MS', DEFAULT_PRICE_TIMEOUT_MS, 100, 30_000),
    cacheTtlMs: whole(env, 'PRICES_CACHE_TTL_MS', DEFAULT_PRICE_TTL_MS, 0, DEFAULT_PRICE_TTL_MS),
    maxAgeMs: whole(env, 'PRICES_MAX_AGE_MS', DEFAULT_PRICE_MAX_AGE_MS, 1000, DEFAULT_PRICE_MAX_AGE_MS),
    sandboxMid,
    sandboxWalkSeed:
      seed === undefined || seed === ''
        ? undefined
        : whole(env, 'PRICES_SANDBOX_WALK_SEED', 0, 0, 2 ** 32 - 1),
  };
}

/** The price rows of the settings list (src/config.ts SETTINGS, mirrored by the README table). */
export const PRICE_SETTINGS: { name: string; default: string; meaning: string }[] = [
  { name: 'PRICES_LIVE_SOURCE', default: 'none', meaning: 'live price source: none or binance' },
  { name: 'PRICES_BINANCE_URL', default: BINANCE_DEFAULT_URL, meaning: 'Binance spot REST base URL' },
  { name: 'PRICES_TIMEOUT_MS', default: String(DEFAULT_PRICE_TIMEOUT_MS), meaning: 'price source timeout' },
  {
    name: 'PRICES_CACHE_TTL_MS',
    default: String(DEFAULT_PRICE_TTL_MS),
    meaning: 'price cache lifetime, ≤ 5000',
  },
  {
    name: 'PRICES_MAX_AGE_MS',
    default: String(DEFAULT_PRICE_MAX_AGE_MS),
    meaning: 'older prices are refused (503), ≤ 60000',
  },
  { name: 'PRICES_SANDBOX_MID', default: SANDBOX_DEFAULT_MID, meaning: 'sandbox BRL per USDT and USDC' },
  {
    name: 'PRICES_SANDBOX_WALK_SEED',
    default: '(unset)',
    meaning: 'set to move sandbox prices by a bounded random walk',
  },
];
