import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { EVM_SETTINGS, type EvmConfig, loadEvmConfig } from './providers/chain/evm/config.ts';
import { loadPixConfig, PIX_SETTINGS, type PixConfig } from './providers/pix/config.ts';
import { loadPriceConfig, PRICE_SETTINGS, type PriceConfig } from './providers/prices/config.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /**
   * Where the world reaches this server (PUBLIC_BASE_URL, no trailing slash): the absolute URLs the
   * API hands out (a payment link's `url`) and the start message are made from it.
   */
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How connections reach PostgreSQL: directly or through a session-mode pool, or a transaction-mode pooler. */
  databasePoolMode: DatabasePoolMode;
  masterKey: string | undefined;
  logLevel: LogLevel;
  sandboxSettleMs: number;
  webhookAllowPrivate: boolean;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Requests per IP per window on the public checkout (/pay/…), which has no credential to count by. */
  checkoutRateLimitMax: number;
  redisUrl: string | undefined;
  /**
   * Addresses and CIDRs of the proxies in front of the API (TRUST_PROXY): a request from one of them
   * is taken to be from the client its X-Forwarded-For names, over the protocol its X-Forwarded-Proto
   * names. Empty: the socket's address, whatever the headers say.
   */
  trustProxy: string[];
  sessionTtlHours: number;
  /** How long an RFQ quote can be executed after it is made. */
  rfqQuoteTtlSeconds: number;
  /** Price sources (src/providers/prices/config.ts). */
  prices: PriceConfig;
  /** The live PIX PSP (src/providers/pix/config.ts). */
  pix: PixConfig;
  /** Live EVM networks (src/providers/chain/evm/config.ts). */
  evm: EvmConfig;
  /** A request (headers and body) must arrive within this; an idle connection is closed after it. */
  requestTimeoutMs: number;
  /** The headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** The operators' listener (/metrics, /health, /ready) of every serve and worker process. */
  metricsPort: number;
  /** NODE_ENV=production: logs are always JSON lines, whatever stdout is. */
  production: boolean;
  metricsHost: string;
  /** Group-commit lanes for the routes that use it (0: every write has its own transaction). */
  groupCommitLanes: number;
  /** Jobs a worker runs at once (JOB_CONCURRENCY); a claim takes twice as many. */
  jobConcurrency: number;
  /** API processes `serve` runs on one port (API_PROCESSES, or --processes N); 1 serves in-process. */
  apiProcesses: number;
}

export { ConfigError };

type Env = Record<string, string | undefined>;

/**
 * Group-commit lanes of one API process: the cores shared among the API processes, 2 to 8 a process.
 * Fewer lanes make fuller batches (one COMMIT, one BEGIN and one gate statement shared by more
 * requests), more lanes more transactions at once, which only pays while there are cores to run them.
 * On a 2-core box 2 lanes served 15–25 % more writes spread over many workspaces than 4, with less CPU
 * per write on both sides (docs/performance.md).
 */
export const groupCommitLanesFor = (cores: number, processes: number): number =>
  Math.min(8, Math.max(2, Math.round(cores / Math.max(1, processes))));

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(name, `must be 1/true or 0/false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/**
 * PUBLIC_BASE_URL without its trailing slash, so a path appends to it. A query, a fragment or
 * credentials would sit before the appended path (a payment link sent to payers): refused.
 */
function publicBaseUrl(env: Env, port: number): string {
  const raw = url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']);
  if (raw === undefined) return `http://127.0.0.1:${port}`;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || raw.includes('?') || raw.includes('#'))
    throw new ConfigError('PUBLIC_BASE_URL', 'must have no ?query or #fragment: paths are appended to it');
  if (parsed.username || parsed.password)
    throw new ConfigError('PUBLIC_BASE_URL', 'must carry no user or password: payers see it');
  return raw.replace(/\/+$/, '');
}

/**
 * libpq's `postgres://user@/db?host=/dir` leaves the host to `?host=`, PGHOST or the default, but an
 * empty host is not a WHATWG URL: it is checked with one put in, and handed to pg as it was written.
 */
function postgresUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL;
  const withHost = raw?.replace(/^(postgres(?:ql)?:\/\/(?:[^/?#@]*@)?)(?=[:/?#]|$)/i, '$1localhost');
  return url({ DATABASE_URL: withHost }, 'DATABASE_URL', ['postgres:', 'postgresql:']) && raw;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: comma-separated addresses, CIDRs or proxy-addr's names; every entry is checked here. */
function trustedProxies(env: Env): string[] {
  const entries = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    // A prefix of 0 would trust every address; proxy-addr refuses it, and so does the check here.
    const prefixOk =
      prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be comma-separated IP addresses or CIDRs with a prefix of at least 1 (e.g. 10.0.0.0/8), or loopback, linklocal, uniquelocal; got "${entry}"`,
      );
    }
  }
  return entries;
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export type DatabasePoolMode = 'session' | 'transaction';
const POOL_MODES: DatabasePoolMode[] = ['session', 'transaction'];

/** Reads every setting once and validates it; a bad value throws a ConfigError naming the setting. */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const masterKey = env.MASTER_KEY || undefined;
  if (masterKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(masterKey)) {
    throw new ConfigError('MASTER_KEY', 'must be 64 hex characters (32 bytes)');
  }
  const host = env.HOST || '127.0.0.1';
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databasePoolMode = (env.DATABASE_POOL_MODE || 'session') as DatabasePoolMode;
  if (!POOL_MODES.includes(databasePoolMode)) {
    throw new ConfigError('DATABASE_POOL_MODE', `must be one of ${POOL_MODES.join(', ')}`);
  }
  if (databasePoolMode === 'transaction' && !env.DATABASE_URL) {
    throw new ConfigError(
      'DATABASE_POOL_MODE',
      'transaction needs DATABASE_URL (embedded PGlite has no pooler)',
    );
  }
  return {
    port,
    host,
    publicBaseUrl: publicBaseUrl(env, port),
    dataDir: path.resolve(env.DATA_DIR || './.lastro'),
    databaseUrl: postgresUrl(env),
    databasePoolMode,
    masterKey,
    logLevel,
    sandboxSettleMs: integer(env, 'SANDBOX_SETTLE_MS', 1000, 0, 3_600_000),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000),
    checkoutRateLimitMax: integer(env, 'CHECKOUT_RATE_LIMIT_MAX', 120, 1, 1_000_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    trustProxy: trustedProxies(env),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 12, 1, 24 * 30),
    rfqQuoteTtlSeconds: integer(env, 'RFQ_QUOTE_TTL_SECONDS', 30, 1, 3600),
    prices: loadPriceConfig(env),
    pix: loadPixConfig(env),
    evm: loadEvmConfig(env),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5000, 1000, 600_000),
    metricsPort: integer(env, 'METRICS_PORT', 9464, 0, 65535),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    production: env.NODE_ENV === 'production',
    groupCommitLanes: integer(
      env,
      'GROUP_COMMIT_LANES',
      groupCommitLanesFor(availableParallelism(), integer(env, 'API_PROCESSES', 1, 1, 64)),
      0,
      64,
    ),
    jobConcurrency: integer(env, 'JOB_CONCURRENCY', 8, 1, 16),
    apiProcesses: integer(env, 'API_PROCESSES', 1, 1, 64),
  };
}

/** Every setting with its default and meaning: the README table is written from this list. */
export const SETTINGS: { name: string; default: string; meaning: string }[] = [
  { name: 'PORT', default: '3000', meaning: 'HTTP port' },
  { name: 'HOST', default: '127.0.0.1', meaning: 'interface to listen on' },
  {
    name: 'PUBLIC_BASE_URL',
    default: 'http://127.0.0.1:PORT',
    meaning: 'where clients and payers reach the server; absolute links (a payment link url) start with it',
  },
  {
    name: 'DATA_DIR',
    default: './.lastro',
    meaning: 'embedded database files, lock file, generated master key',
  },
  { name: 'DATABASE_URL', default: '(unset)', meaning: 'postgres:// URL; unset runs on embedded PGlite' },
  {
    name: 'DATABASE_POOL_MODE',
    default: 'session',
    meaning:
      'transaction when a transaction-mode pooler (PgBouncer) stands before PostgreSQL: every statement run is then described afresh',
  },
  {
    name: 'MASTER_KEY',
    default: '(generated)',
    meaning: '64 hex chars; encrypts TOTP secrets and private keys',
  },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace, silent' },
  {
    name: 'NODE_ENV',
    default: '(unset)',
    meaning: 'production: logs are JSON lines even on a terminal (elsewhere a terminal gets readable lines)',
  },
  { name: 'SANDBOX_SETTLE_MS', default: '1000', meaning: 'delay before sandbox payouts and sends settle' },
  { name: 'WEBHOOK_ALLOW_PRIVATE', default: '0', meaning: '1 lets sandbox webhooks reach private addresses' },
  { name: 'RATE_LIMIT_MAX', default: '600', meaning: 'requests per credential (or address) per window' },
  { name: 'RATE_LIMIT_WINDOW_MS', default: '60000', meaning: 'rate-limit window' },
  {
    name: 'REDIS_URL',
    default: '(unset)',
    meaning: 'share rate-limit and failed-login counters between processes',
  },
  {
    name: 'CHECKOUT_RATE_LIMIT_MAX',
    default: '120',
    meaning: 'requests per IP per window on the public checkout pages (/pay/…)',
  },
  {
    name: 'TRUST_PROXY',
    default: '(unset)',
    meaning:
      'addresses/CIDRs of the proxies in front of the API; from them X-Forwarded-For and X-Forwarded-Proto are believed',
  },
  { name: 'SESSION_TTL_HOURS', default: '12', meaning: 'dashboard session lifetime' },
  { name: 'RFQ_QUOTE_TTL_SECONDS', default: '30', meaning: 'how long an RFQ quote can be executed, 1..3600' },
  ...PRICE_SETTINGS,
  ...PIX_SETTINGS,
  ...EVM_SETTINGS,
  {
    name: 'REQUEST_TIMEOUT_MS',
    default: '30000',
    meaning: 'a request must arrive whole within this; a connection idle this long is closed',
  },
  { name: 'HEADERS_TIMEOUT_MS', default: '10000', meaning: 'headers must arrive within this' },
  { name: 'KEEP_ALIVE_TIMEOUT_MS', default: '5000', meaning: 'idle keep-alive connections close after this' },
  {
    name: 'METRICS_PORT',
    default: '9464',
    meaning:
      'port of /metrics, /health and /ready for operators, in every serve and worker process (0: any free port)',
  },
  {
    name: 'METRICS_HOST',
    default: '127.0.0.1',
    meaning: 'interface of the metrics port; widen it only on a private network (no credential guards it)',
  },
  {
    name: 'GROUP_COMMIT_LANES',
    default: 'the cores ÷ API processes, 2 to 8',
    meaning: 'transactions that payouts and cash-ins share at once (group commit); 0 turns it off',
  },
  {
    name: 'JOB_CONCURRENCY',
    default: '8',
    meaning:
      'jobs a worker runs at once, 1..16; they share the process’s 20 connections with its tasks (and in `serve` with the API)',
  },
];
