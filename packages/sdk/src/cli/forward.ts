import { Webhook } from 'standardwebhooks';

/** An event as GET /v1/{env}/events answers it. */
export interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
}

/** The request a listener POSTs and what the local endpoint answered. */
export interface Forwarded {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  error: string | null;
  responseExcerpt: string;
  durationMs: number;
}

/** As a delivery's timeout (docs/webhooks.md): a local endpoint gets as long as a real one. */
const FORWARD_TIMEOUT_MS = 15_000;
/** How much of the local endpoint's answer --print shows. */
const RESPONSE_EXCERPT_CHARS = 2048;

/**
 * Signs `event` as a delivery is signed (Standard Webhooks v1: HMAC-SHA256 of id.timestamp.body,
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md) and
 * POSTs it to `url`; never throws, a failure is in the result.
 */
export async function forward(url: string, secret: string, event: ListedEvent): Promise<Forwarded> {
  const body = JSON.stringify(event);
  const timestamp = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Lastro-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(event.id, timestamp, body),
  };
  const started = performance.now();
  const done = (status: number | null, error: string | null, responseExcerpt = '') => ({
    url,
    headers,
    body,
    status,
    error,
    responseExcerpt,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const text = await response.text().catch(() => '');
    return done(response.status, null, text.slice(0, RESPONSE_EXCERPT_CHARS));
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return done(null, cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

/** One line per event, or with `full` the request's headers and body and the answer (--print). */
export function describe(event: ListedEvent, result: Forwarded, full: boolean): string {
  const answer = result.status === null ? `failed: ${result.error}` : `${result.status}`;
  const line = `${event.created_at}  ${event.type}  ${event.id}  -> ${answer} (${result.durationMs} ms)`;
  if (!full) return line;
  const headers = Object.entries(result.headers).map(([name, value]) => `${name}: ${value}`);
  return [
    line,
    `> POST ${result.url}`,
    ...headers.map((header) => `> ${header}`),
    '>',
    `> ${result.body}`,
    `< ${answer}`,
    ...(result.responseExcerpt ? result.responseExcerpt.split('\n').map((text) => `< ${text}`) : []),
    '',
  ].join('\n');
}
