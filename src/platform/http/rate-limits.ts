import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { LoginThrottle, memoryFailureStore, redisFailureStore } from '../auth/login-throttle.ts';
import type { Deps } from '../context.ts';
import { AppError, ERROR_STATUS } from '../errors.ts';
import { rateLimitKey } from '../rate-limit-key.ts';
import type { App } from '../schema.ts';
import { LocalAllowance } from './local-allowance.ts';

const tooManyRequests = (ttlMs: number) => {
  const seconds = String(Math.ceil(ttlMs / 1000));
  return new AppError('rate_limited', `Too many requests; retry in ${seconds} s.`, undefined, {
    'retry-after': seconds,
  });
};

/**
 * The general allowance counted in this process's memory (no REDIS_URL), with the plugin's headers
 * and answer: the same count (local-allowance.ts), without its promises on every request.
 */
function generalLimitInMemory(app: App, max: number, windowMs: number): void {
  const allowance = new LocalAllowance(max, windowMs);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config?.rateLimit !== undefined) return done();
    const spent = allowance.spend(rateLimitKey(request), Date.now());
    const resetS = Math.ceil(spent.ttlMs / 1000);
    reply.header('x-ratelimit-limit', max);
    reply.header('x-ratelimit-remaining', spent.remaining);
    reply.header('x-ratelimit-reset', resetS);
    if (!spent.exceeded) return done();
    reply.header('retry-after', resetS);
    done(tooManyRequests(spent.ttlMs));
  });
}

/** Spends the client address's allowance when a request fails authentication (401). */
export type ChargeFailedAuth = (request: FastifyRequest, error: unknown) => Promise<void>;

/**
 * With REDIS_URL the counters are shared by every API process; otherwise each process counts in
 * memory. createDeps builds the client without connecting, so a process that never counts (the
 * worker, an operator command) opens nothing; the API connects as it starts, not on its first request.
 */
function sharedCounters(deps: Deps): Redis | undefined {
  if (deps.redis?.status === 'wait') deps.redis.connect().catch(() => {});
  return deps.redis;
}

/** Failed logins per account and per address, as app.loginThrottle. */
export function loginThrottle(app: App, deps: Deps): void {
  const redis = sharedCounters(deps);
  app.decorate(
    'loginThrottle',
    new LoginThrottle(
      redis ? redisFailureStore(redis) : memoryFailureStore(() => deps.clock.now().getTime()),
    ),
  );
}

/**
 * Requests per credential (or address), and failed authentications per address. Not per route (the
 * plugin's default adds its hook after the app's hooks, so after authentication): one app-level
 * hook, registered before authentication's, so every request is counted first. Routes with an
 * allowance of their own (the public checkout pages) are limited by it instead.
 */
export async function rateLimits(app: App, deps: Deps): Promise<ChargeFailedAuth> {
  const redis = sharedCounters(deps);
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'lastro-rl:', skipOnError: true } : {}),
    max: deps.config.rateLimitMax,
    timeWindow: deps.config.rateLimitWindowMs,
    // Per credential: one tenant's burst cannot eat another's allowance behind the same IP.
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
  });

  if (redis) {
    const generalLimit = app.rateLimit();
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.rateLimit === undefined) await generalLimit.call(app, request, reply);
    });
  } else generalLimitInMemory(app, deps.config.rateLimitMax, deps.config.rateLimitWindowMs);
  // A request that fails authentication also spends its address's allowance, so invented tokens
  // (each its own credential key) cannot buy fresh allowances.
  const failedAuthLimit = app.createRateLimit({ keyGenerator: (request) => `auth-failed:${request.ip}` });
  return async (request, error) => {
    if (!(error instanceof AppError) || ERROR_STATUS[error.code] !== 401) return;
    const verdict = await failedAuthLimit(request);
    if (!verdict.isAllowed && verdict.isExceeded) {
      const seconds = String(verdict.ttlInSeconds);
      throw new AppError(
        'rate_limited',
        `Too many failed authentications; retry in ${seconds} s.`,
        undefined,
        {
          'retry-after': seconds,
        },
      );
    }
  };
}
