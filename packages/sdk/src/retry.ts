/** When to try a request again, and how long to wait before it. */
export interface RetryOptions {
  /** Attempts in all, the first one included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** Base of the exponential backoff in ms (default 500). */
  baseDelayMs?: number;
  /** Upper bound of any one wait in ms, `Retry-After` included (default 30000). */
  maxDelayMs?: number;
}

/** 429 and 503 say "try later"; every other status is the answer. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Full jitter (a random wait between 0 and base·2^(attempt-1), capped), unless the server said how
 * long with `Retry-After` (seconds or an HTTP date), which is honoured up to the cap.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | null,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), options.maxDelayMs);
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

const UNKEYED_WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Waits `ms`, or rejects with the signal's reason as soon as the caller aborts. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Sends `request` (cloned for each attempt, so its body is sent again whole) until it gets an answer
 * that is not 429/503, or the attempts run out; network errors are retried the same way. A write
 * without an Idempotency-Key is retried on 429 only.
 */
export async function fetchWithRetry(
  request: Request,
  send: (request: Request) => Promise<Response>,
  options: Required<RetryOptions>,
): Promise<Response> {
  // A write without an Idempotency-Key (auth routes) may have been done: only a 429 sends it again.
  const replayable = !UNKEYED_WRITES.has(request.method) || request.headers.has('idempotency-key');
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= options.maxAttempts;
    let response: Response;
    try {
      response = await send(last ? request : request.clone());
    } catch (error) {
      if (last || !replayable || request.signal.aborted) throw error;
      await sleep(retryDelayMs(attempt, null, options), request.signal);
      continue;
    }
    if (last || !RETRY_STATUSES.has(response.status) || (!replayable && response.status !== 429))
      return response;
    await response.body?.cancel();
    await sleep(retryDelayMs(attempt, response.headers.get('retry-after'), options), request.signal);
  }
}
