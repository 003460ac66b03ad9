import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DestinationRefused, guardedLookup, hostOf, isPrivateAddress } from './url-policy.ts';

/** At most this much of a receiver's answer is read: the status decides, the body is only drained. */
const RESPONSE_PREFIX_BYTES = 4096;
/** How long a short answer's body may take to end after its headers, so the socket can be reused. */
const BODY_GRACE_MS = 1000;

/**
 * Reads at most RESPONSE_PREFIX_BYTES of a response already decided by its status, then lets it end
 * (the keep-alive socket goes back to the pool) or cuts it: a receiver that answers 200 and streams
 * for ever, or sends hundreds of megabytes, costs the dispatcher 4 KiB and no retry.
 */
function drainPrefix(response: http.IncomingMessage): void {
  let read = 0;
  const cut = () => response.destroy();
  const grace = setTimeout(cut, BODY_GRACE_MS);
  grace.unref();
  response.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > RESPONSE_PREFIX_BYTES) cut();
  });
  response.on('close', () => clearTimeout(grace));
  // A cut or dropped body changes nothing: the status was already taken.
  response.on('error', () => {});
}

/** Why an attempt was cut short: its own timeout, or the worker stopping. */
const TIMED_OUT = 'timed out';
const INTERRUPTED = 'interrupted';

export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Keep-alive agents, one pair per destination policy so a socket opened under the lenient policy never serves the strict one. */
export class WebhookHttp {
  private readonly agents = new Map<string, http.Agent>();

  private agent(protocol: string, allowPrivate: boolean): http.Agent {
    const key = `${protocol}${allowPrivate}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' as const };
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }

  /**
   * POSTs `body` to `rawUrl` outside any transaction. Never follows redirects; the outcome is the
   * status, taken as soon as the headers arrive, and at most a short prefix of the body is read
   * (drainPrefix); gives up after `timeoutMs` waiting for the headers, or when `interrupt` aborts
   * (the worker stopping). A private destination, literal or resolved, is refused before any byte
   * is sent unless `allowPrivate`.
   */
  async post(
    rawUrl: string,
    headers: Record<string, string>,
    body: string,
    options: { timeoutMs: number; allowPrivate: boolean; interrupt?: AbortSignal },
  ): Promise<SendOutcome> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): SendOutcome => ({
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    const url = new URL(rawUrl);
    const host = hostOf(url);
    if (isIP(host) && !options.allowPrivate && isPrivateAddress(host)) {
      return done(null, `destination refused: ${host} is a private address`);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), options.timeoutMs);
    const interrupt = () => controller.abort(INTERRUPTED);
    if (options.interrupt?.aborted) interrupt();
    options.interrupt?.addEventListener('abort', interrupt);
    const client = url.protocol === 'https:' ? https : http;
    try {
      const statusCode = await new Promise<number>((resolve, reject) => {
        const request = client.request(
          url,
          {
            method: 'POST',
            agent: this.agent(url.protocol, options.allowPrivate),
            lookup: guardedLookup(options.allowPrivate),
            signal: controller.signal,
            headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            resolve(response.statusCode ?? 0);
            drainPrefix(response);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      return done(statusCode, statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`);
    } catch (error) {
      if (controller.signal.reason === INTERRUPTED)
        return done(null, 'interrupted: the worker stopped before the answer came');
      if (controller.signal.aborted) return done(null, `timeout after ${options.timeoutMs} ms`);
      if (error instanceof DestinationRefused) return done(null, `destination refused: ${error.message}`);
      const err = error as NodeJS.ErrnoException;
      return done(null, err.code ? `${err.code}: ${err.message}` : err.message);
    } finally {
      clearTimeout(timer);
      options.interrupt?.removeEventListener('abort', interrupt);
    }
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
