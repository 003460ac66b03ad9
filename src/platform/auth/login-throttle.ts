import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import { sha256 } from '../secrets.ts';

/** Failed logins allowed per account (e-mail) and per client address in one window. */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 50;
export const LOGIN_WINDOW_MS = 15 * 60_000;

/** Failures counted under a key for a window that starts with the first one. */
export interface FailureStore {
  /** The current count and the milliseconds left in its window. */
  get(key: string): Promise<{ count: number; ttlMs: number }>;
  increment(key: string, windowMs: number): Promise<void>;
  reset(key: string): Promise<void>;
}

/** One process's counters (each API process counts its own without REDIS_URL). */
export function memoryFailureStore(now: () => number = Date.now): FailureStore {
  const entries = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.resetAt <= now()) entries.delete(key);
    return entries.get(key);
  };
  const sweep = () => {
    for (const [key, entry] of entries) if (entry.resetAt <= now()) entries.delete(key);
    // Bounded whatever the traffic: past the cap the oldest windows go first.
    for (const key of entries.keys()) {
      if (entries.size <= 100_000) break;
      entries.delete(key);
    }
  };
  return {
    async get(key) {
      const entry = live(key);
      return entry ? { count: entry.count, ttlMs: entry.resetAt - now() } : { count: 0, ttlMs: 0 };
    },
    async increment(key, windowMs) {
      const entry = live(key);
      if (entry) entry.count++;
      else {
        if (entries.size >= 10_000) sweep();
        entries.set(key, { count: 1, resetAt: now() + windowMs });
      }
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

/** Counters shared by every API process. Like the rate limiter, a Redis outage lets logins through. */
export function redisFailureStore(redis: Redis, prefix = 'lastro-login:'): FailureStore {
  return {
    async get(key) {
      try {
        const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
        return { count: Number(count ?? 0), ttlMs: Math.max(0, ttl) };
      } catch {
        return { count: 0, ttlMs: 0 };
      }
    },
    async increment(key, windowMs) {
      try {
        const count = await redis.incr(prefix + key);
        if (count === 1 || (await redis.pttl(prefix + key)) < 0) await redis.pexpire(prefix + key, windowMs);
      } catch {
        // counted nowhere: see above
      }
    },
    async reset(key) {
      await redis.del(prefix + key).catch(() => {});
    },
  };
}

const FAILURES = new Set(['invalid_credentials', 'otp_invalid']);

/**
 * Limits failed logins per account and per address: past the limit, a login is refused with 429
 * rate_limited before the password is even checked, so a guess that happens to be right confirms
 * nothing. Only wrong passwords and one-time codes count; a success clears the account's count.
 */
export class LoginThrottle {
  constructor(private readonly store: FailureStore) {}

  async guard<T>(email: string, address: string, login: () => Promise<T>): Promise<T> {
    const account = `account:${sha256(email.trim().toLowerCase()).toString('base64')}`;
    const client = `address:${address}`;
    const [byAccount, byAddress] = await Promise.all([this.store.get(account), this.store.get(client)]);
    const blocked = [
      byAccount.count >= LOGIN_FAILURES_PER_ACCOUNT ? byAccount.ttlMs : 0,
      byAddress.count >= LOGIN_FAILURES_PER_ADDRESS ? byAddress.ttlMs : 0,
    ].filter((ttl) => ttl > 0);
    if (blocked.length > 0) {
      const seconds = Math.ceil(Math.max(...blocked) / 1000);
      throw new AppError('rate_limited', `Too many failed logins; retry in ${seconds} s.`, undefined, {
        'retry-after': String(seconds),
      });
    }
    try {
      const result = await login();
      await this.store.reset(account);
      return result;
    } catch (error) {
      if (error instanceof AppError && FAILURES.has(error.code)) {
        await Promise.all([
          this.store.increment(account, LOGIN_WINDOW_MS),
          this.store.increment(client, LOGIN_WINDOW_MS),
        ]);
      }
      throw error;
    }
  }
}
