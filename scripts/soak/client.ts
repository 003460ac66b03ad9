/** HTTP calls of the soak, with its retry rule and the counters every call feeds. */
export interface Answer {
  /** 0 when no answer came (connection refused or reset: the API was killed). */
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body of any route
  body: any;
  headers: Headers | null;
  text: string;
}

export interface Credential {
  token?: string;
  workspaceId?: string;
}

export const stats = {
  calls: 0,
  retries: 0,
  noAnswer: 0,
  unavailable: 0,
  violations: [] as string[],
  /** Milliseconds per call, by method and path with ids blanked out. */
  latency: new Map<string, number[]>(),
};

const route = (method: string, path: string) =>
  `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').replace(/\/pay\/[^/]+/, '/pay/:slug')}`;

/** p50 and p99 per route, slowest p99 first. */
export function latencyReport(): string {
  const at = (sorted: number[], q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return [...stats.latency]
    .map(([name, all]) => ({ name, all: all.sort((a, b) => a - b) }))
    .sort((a, b) => at(b.all, 0.99) - at(a.all, 0.99))
    .map(({ name, all }) => `  ${name}: ${all.length} calls, p50 ${at(all, 0.5)} ms, p99 ${at(all, 0.99)} ms`)
    .join('\n');
}

export function violation(message: string): void {
  stats.violations.push(message);
  if (stats.violations.length <= 20) console.error(`soak: VIOLATION ${message}`);
}

/** One request; an answer 500, or one whose body leaks a stack or SQL, is a violation. */
export async function call(
  base: string,
  method: string,
  path: string,
  who: Credential = {},
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  stats.calls++;
  const began = Date.now();
  const timed = () => {
    const key = route(method, path);
    const list = stats.latency.get(key) ?? [];
    list.push(Date.now() - began);
    stats.latency.set(key, list);
  };
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
        ...(who.workspaceId ? { 'x-workspace-id': who.workspaceId } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    timed();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (res.status >= 500 && res.status !== 503)
      violation(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    if (res.status === 503) {
      stats.unavailable++;
      if (!res.headers.get('retry-after')) violation(`${method} ${path}: 503 without Retry-After`);
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  } catch (error) {
    stats.noAnswer++;
    if (process.env.SOAK_DEBUG)
      console.error(`soak: ${method} ${path}: no answer: ${(error as Error).cause ?? error}`);
    return { status: 0, body: null, headers: null, text: '' };
  }
}

const RETRYABLE = new Set([0, 409, 429, 503]);

/** An answer that is the request's outcome: not a missing answer, a 503, a 429 or the key still in use. */
export function isFinal(answer: Answer): boolean {
  if (answer.status === 409) return answer.body?.error !== 'idempotency_key_in_use';
  return !RETRYABLE.has(answer.status);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A retry deadline a minute from the first call. */
export function inAMinute(): () => number {
  const untilMs = Date.now() + 60_000;
  return () => untilMs;
}

/**
 * A money-moving call under an Idempotency-Key, sent again with the same key and body while no
 * final answer comes (killed API, database restarting, the same key still in flight), until `untilMs()`.
 * A 409 that is not "in use" (a reuse with another body) is final.
 */
export async function idempotent(
  base: string,
  path: string,
  who: Credential,
  key: string,
  body: unknown,
  untilMs: () => number,
): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await call(base, 'POST', path, who, body, { 'idempotency-key': key });
    if (isFinal(answer) || Date.now() > untilMs()) return answer;
    stats.retries++;
    await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 4)) * (0.5 + Math.random()));
  }
}
