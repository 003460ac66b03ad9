/**
 * The general allowance in memory (local-allowance.ts) counts as @fastify/rate-limit's LocalStore,
 * which the per-route limits and the Redis-less failed-authentication limit still use: the same
 * remaining count, window left and verdict for any sequence of keys and times, eviction included.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalAllowance } from './local-allowance.ts';

interface StoreAnswer {
  current: number;
  ttl: number;
}
type LocalStore = {
  incr(key: string, cb: (error: unknown, answer: StoreAnswer) => void, windowMs: number, max: number): void;
};
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  capacity: number,
) => LocalStore;

const storeSpend = (store: LocalStore, key: string, windowMs: number, max: number) => {
  let answer: StoreAnswer | undefined;
  store.incr(
    key,
    (_error, given) => {
      answer = given;
    },
    windowMs,
    max,
  );
  return {
    remaining: Math.max(0, max - answer!.current),
    ttlMs: answer!.ttl,
    exceeded: answer!.current > max,
  };
};

describe('the general allowance in memory', () => {
  it('answers every request as the plugin’s store does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1000, max: 5000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), advanceMs: fc.nat(2500) }), {
          maxLength: 60,
        }),
        (max, windowMs, capacity, requests) => {
          const ours = new LocalAllowance(max, windowMs, capacity);
          const theirs = new LocalStore(false, false, capacity);
          let nowMs = 1_700_000_000_000;
          const realNow = Date.now;
          try {
            for (const { key, advanceMs } of requests) {
              nowMs += advanceMs;
              Date.now = () => nowMs;
              expect(ours.spend(key, nowMs)).toEqual(storeSpend(theirs, key, windowMs, max));
            }
          } finally {
            Date.now = realNow;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses the request past the allowance until the window ends', () => {
    const allowance = new LocalAllowance(2, 60_000);
    expect(allowance.spend('k', 0)).toEqual({ remaining: 1, ttlMs: 60_000, exceeded: false });
    expect(allowance.spend('k', 10_000)).toEqual({ remaining: 0, ttlMs: 50_000, exceeded: false });
    expect(allowance.spend('k', 20_000)).toEqual({ remaining: 0, ttlMs: 40_000, exceeded: true });
    expect(allowance.spend('other', 20_000).exceeded).toBe(false);
    expect(allowance.spend('k', 60_000)).toEqual({ remaining: 1, ttlMs: 60_000, exceeded: false });
  });
});
