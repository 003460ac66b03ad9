import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Timeouts of the HTTP server, so a client that sends its request slowly, or never finishes it,
 * cannot hold a connection for ever: headers within HEADERS_TIMEOUT_MS, the whole request within
 * REQUEST_TIMEOUT_MS (408 request_timeout, then the connection closes), an idle keep-alive
 * connection closed after KEEP_ALIVE_TIMEOUT_MS. A connection with no traffic either way (a client
 * that stops reading its response) is closed after twice the request timeout, at least 60 s: long
 * enough never to cut a response still being prepared (the 10 s wait on a duplicate Idempotency-Key).
 */
export function serverTimeouts(config: Config): Pick<
  FastifyServerOptions,
  'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout'
> & {
  http: { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionTimeout: Math.max(60_000, 2 * config.requestTimeoutMs),
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default, too coarse for them).
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
  };
}
