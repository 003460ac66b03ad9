import { describe, expect, it } from 'vitest';
import { runClock } from '../../scripts/soak/clock.ts';

describe('the soak run clock', () => {
  it('does not count the time a grow takes, so the faults planned after it still happen', async () => {
    let nowMs = 1_000_000;
    const clock = runClock(2000, 3, () => nowMs);
    nowMs += 27_000; // 15 % of three minutes
    expect(clock.share()).toBeCloseTo(0.15);
    const deadlineBefore = clock.deadlineMs();
    await clock.paused(async () => {
      nowMs += 203_600; // a rebalance longer than the whole run
      expect(clock.share()).toBeCloseTo(0.15);
    });
    expect(clock.share()).toBeCloseTo(0.15);
    expect(clock.deadlineMs()).toBe(deadlineBefore + 203_600);
    nowMs += 45_000;
    expect(clock.share()).toBeCloseTo(0.4);
  });

  it('ends on operations or on time, whichever comes first', () => {
    let nowMs = 0;
    const clock = runClock(10, 1, () => nowMs);
    clock.issued = 10;
    expect(clock.share()).toBeGreaterThanOrEqual(1);
    clock.issued = 1;
    nowMs = 60_000;
    expect(clock.share()).toBeGreaterThanOrEqual(1);
    nowMs = 30_000;
    expect(clock.share()).toBeCloseTo(0.5);
  });

  it('stops the clock even when the paused work fails', async () => {
    let nowMs = 0;
    const clock = runClock(100, 1, () => nowMs);
    await expect(
      clock.paused(async () => {
        nowMs = 50_000;
        throw new Error('rebalance failed');
      }),
    ).rejects.toThrow('rebalance failed');
    expect(clock.share()).toBe(0);
    nowMs = 80_000;
    expect(clock.share()).toBeCloseTo(0.5);
  });
});

describe('operations issued during a grow', () => {
  it('do not count against a run bounded by its operations', async () => {
    const nowMs = 0;
    const clock = runClock(100, 60, () => nowMs);
    clock.issued = 15;
    await clock.paused(async () => {
      clock.issued += 200; // the clients write all through the rebalance
      expect(clock.share()).toBeCloseTo(0.15);
    });
    expect(clock.share()).toBeCloseTo(0.15);
    clock.issued += 25;
    expect(clock.share()).toBeCloseTo(0.4);
  });
});
