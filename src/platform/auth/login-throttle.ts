import type { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import { sha256 } from '../secrets.ts';

/** Failed attempts allowed per account (e-mail, or user for a one-time code) and per client address in one window. */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 50;
export const LOGIN_WINDOW_MS = 15 * 60_000;

/** Attempts counted under a key for a window that starts with the first one. */
export interface FailureStore {
  /** Counts one more attempt at once (atomically) and returns the new count and the window's time left. */
  claim(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** Takes back one claimed attempt (it succeeded, or never reached the password check). */
  release(key: string): Promise<void>;
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
    async claim(key, windowMs) {
      let entry = live(key);
      if (entry) entry.count++;
      else {
        if (entries.size >= 10_000) sweep();
        entry = { count: 1, resetAt: now() + windowMs };
        entries.set(key, entry);
      }
      return { count: entry.count, ttlMs: entry.resetAt - now() };
    },
    async release(key) {
      const entry = live(key);
      if (entry && entry.count > 0) entry.count--;
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

/** Counters shared by every API process. Like the rate limiter, a Redis outage lets logins through. */
export function redisFailureStore(redis: Redis, prefix = 'lastro-login:'): FailureStore {
  return {
    async claim(key, windowMs) {
      try {
        const count = await redis.incr(prefix + key);
        let ttl = await redis.pttl(prefix + key);
        if (ttl < 0) {
          await redis.pexpire(prefix + key, windowMs);
          ttl = windowMs;
        }
        return { count, ttlMs: ttl };
      } catch {
        return { count: 0, ttlMs: 0 };
      }
    },
    async release(key) {
      await redis.decr(prefix + key).catch(() => {});
    },
    async reset(key) {
      await redis.del(prefix + key).catch(() => {});
    },
  };
}

const FAILURES = new Set(['invalid_credentials', 'otp_invalid']);

/** What a throttle counts: its own counters, and what a refusal says. */
export interface Guarded {
  name: string;
  refusal: string;
}
export const LOGINS: Guarded = { name: 'login', refusal: 'Too many failed logins' };
/** The one-time code a 2FA session sends with a sensitive action (crypto send's X-OTP-Code). */
export const ACTION_CODES: Guarded = { name: 'otp', refusal: 'Too many wrong one-time codes' };

/**
 * Limits failed attempts per account and, more loosely, per address: past the limit, an attempt is
 * refused with 429 rate_limited before the password or code is even checked, so a guess that happens
 * to be right confirms nothing. Each attempt claims its slot first; only wrong passwords and one-time
 * codes keep it, and a success clears the account's count. A refused attempt checked nothing and
 * keeps no slot, so one account adds at most its own limit to its address's count: one person's
 * failures cannot lock out the other accounts behind a shared address (a proxy, an office NAT).
 */
export class LoginThrottle {
  constructor(private readonly store: FailureStore) {}

  async guard<T>(account: string, address: string, attempt: () => Promise<T>, what = LOGINS): Promise<T> {
    const accountKey = `${what.name}:account:${sha256(account.trim().toLowerCase()).toString('base64')}`;
    const addressKey = `${what.name}:address:${address}`;
    const release = () => Promise.all([this.store.release(accountKey), this.store.release(addressKey)]);
    // The attempt is counted before the password is checked, so concurrent guesses see each other.
    const [byAccount, byAddress] = await Promise.all([
      this.store.claim(accountKey, LOGIN_WINDOW_MS),
      this.store.claim(addressKey, LOGIN_WINDOW_MS),
    ]);
    const blocked = [
      byAccount.count > LOGIN_FAILURES_PER_ACCOUNT ? byAccount.ttlMs : 0,
      byAddress.count > LOGIN_FAILURES_PER_ADDRESS ? byAddress.ttlMs : 0,
    ].filter((ttl) => ttl > 0);
    if (blocked.length > 0) {
      await release();
      const seconds = Math.ceil(Math.max(...blocked) / 1000);
      throw new AppError('rate_limited', `${what.refusal}; retry in ${seconds} s.`, undefined, {
        'retry-after': String(seconds),
      });
    }
    try {
      const result = await attempt();
      await Promise.all([this.store.reset(accountKey), this.store.release(addressKey)]);
      return result;
    } catch (error) {
      // Only a wrong password or one-time code keeps its claim; anything else was no guess.
      if (!(error instanceof AppError && FAILURES.has(error.code))) await release();
      throw error;
    }
  }
}
