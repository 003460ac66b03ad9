import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelayMs } from './schedule.ts';

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after 8 attempts', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, middle))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(retryDelayMs(8, middle)).toBeNull();
    expect(retryDelayMs(9, middle)).toBeNull();
  });

  it('jitters by ±10 %', () => {
    expect(retryDelayMs(1, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, () => 0.999999)).toBe(5_500);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(2)!;
      expect(delay).toBeGreaterThanOrEqual(270_000);
      expect(delay).toBeLessThanOrEqual(330_000);
    }
  });
});
