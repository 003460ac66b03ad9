/** What one request spent of its key's allowance. */
export interface Spent {
  /** Requests the window still allows after this one (0 once exceeded). */
  remaining: number;
  /** Time left in the window, in ms. */
  ttlMs: number;
  /** This request went over the allowance. */
  exceeded: boolean;
}

interface Window {
  count: number;
  startMs: number;
}

/**
 * Requests per key in fixed windows, in this process's memory: the count @fastify/rate-limit's
 * LocalStore keeps (a window opens at a key's first request and lasts `windowMs`; the least recently
 * seen keys are forgotten past `capacity`), answered synchronously. The plugin's path awaits its key,
 * its store and itself, a promise each, on every request the API serves.
 */
export class LocalAllowance {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly capacity = 5000,
  ) {}

  spend(key: string, nowMs: number): Spent {
    let window = this.windows.get(key);
    if (window === undefined) window = { count: 0, startMs: nowMs };
    else this.windows.delete(key); // set again below: the Map's order is the keys' last use
    if (window.startMs + this.windowMs <= nowMs) {
      window.count = 0;
      window.startMs = nowMs;
    }
    window.count++;
    this.windows.set(key, window);
    if (this.windows.size > this.capacity) this.windows.delete(this.windows.keys().next().value!);
    return {
      remaining: Math.max(0, this.max - window.count),
      ttlMs: this.windowMs - (nowMs - window.startMs),
      exceeded: window.count > this.max,
    };
  }
}
