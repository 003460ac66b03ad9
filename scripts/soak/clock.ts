/**
 * How far a soak run is: in operations or in time, whichever is further. The time starts when the
 * clients do (not before the service has migrated and the tenants exist), and time spent growing the
 * cluster does not count: on a slow machine a rebalance can outlast the planned minutes, and the
 * faults planned after it (kills, PostgreSQL restarts) must still happen while the clients write.
 */
export interface RunClock {
  /** Operations the clients have started so far. */
  issued: number;
  /** 0 at the start, 1 once the operations or the minutes are used up. */
  share(): number;
  /** When the run ends if nothing else pauses it, in epoch milliseconds. */
  deadlineMs(): number;
  /** Runs `work` with the clock stopped, and starts it again once `work` settles. */
  paused<T>(work: () => Promise<T>): Promise<T>;
}

export function runClock(ops: number, minutes: number, now: () => number = Date.now): RunClock {
  const startedMs = now();
  const runMs = minutes * 60_000;
  let pausedMs = 0;
  let pausedSinceMs: number | undefined;
  // Operations issued while paused do not count either, or a run bounded by its operations could
  // use them up during a long grow and skip the faults planned after it.
  let pausedIssued = 0;
  let issuedAtPause = 0;
  const stoppedMs = () => pausedMs + (pausedSinceMs === undefined ? 0 : now() - pausedSinceMs);
  return {
    issued: 0,
    share() {
      const elapsedMs = now() - startedMs - stoppedMs();
      const counted =
        this.issued - pausedIssued - (pausedSinceMs === undefined ? 0 : this.issued - issuedAtPause);
      return Math.max(ops === 0 ? 1 : counted / ops, runMs === 0 ? 1 : elapsedMs / runMs);
    },
    deadlineMs: () => startedMs + stoppedMs() + runMs,
    async paused(work) {
      if (pausedSinceMs !== undefined) return work();
      pausedSinceMs = now();
      issuedAtPause = this.issued;
      try {
        return await work();
      } finally {
        pausedMs += now() - pausedSinceMs;
        pausedIssued += this.issued - issuedAtPause;
        pausedSinceMs = undefined;
      }
    },
  };
}
