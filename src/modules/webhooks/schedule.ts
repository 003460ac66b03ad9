/** Delays before attempts 2..8 (API.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. The first attempt goes at once. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600_000;

/**
 * The wait before the next attempt after `attemptsMade` attempts have failed, with ±10 % jitter so
 * a burst of failures does not come back as a burst; null when no attempt is left (then `failed`).
 * A delivery retried by hand past the schedule gets that one attempt only.
 */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
