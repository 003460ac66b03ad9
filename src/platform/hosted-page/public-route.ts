/**
 * What every public hosted-page route (/pay/…) shares: no authentication, a rate limit per IP (there
 * is no credential to count by), and the security headers of a page that handles a payer's document.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../context.ts';
import type { ErrorCode } from '../errors.ts';

/** For JSON answers and anything a page did not set itself: nothing may load, nothing may frame it. */
const LOCKED_DOWN_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * A page's own policy: only its nonce-bearing style and scripts, QR images as data: URLs, calls to
 * itself. A page without a script (`scripts: false`) names no script source, so none can run there.
 */
export const pageCsp = (nonce: string, options: { scripts?: boolean } = {}) =>
  [
    "default-src 'none'",
    ...(options.scripts === false ? [] : [`script-src 'nonce-${nonce}'`]),
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export const newNonce = () => randomBytes(16).toString('base64');

export function publicRouteOptions(deps: Deps, errors: readonly ErrorCode[]) {
  return {
    config: {
      auth: 'none' as const,
      errors,
      rateLimit: {
        max: deps.config.checkoutRateLimitMax,
        timeWindow: deps.config.rateLimitWindowMs,
        keyGenerator: (request: FastifyRequest) => `pay:${request.ip}`,
      },
    },
    // onSend runs for every answer of the route, errors and 429s included.
    onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      secureHostedAnswer(reply);
      return payload;
    },
  };
}

/** The hosted pages' security headers, and the locked-down policy unless the answer set its own. */
export function secureHostedAnswer(reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', LOCKED_DOWN_CSP);
}

/** Whether a path is under the hosted pages (/pay/…), where even an answer no route gave needs their headers. */
export const isHostedPagePath = (url: string): boolean => url === '/pay' || url.startsWith('/pay/');

/** OpenAPI: these routes take no credential. */
export const PUBLIC_SECURITY: readonly Record<string, string[]>[] = [];

/** OpenAPI: an answer of a page route, an HTML page (`example`: the 200's, so the document shows one). */
export const htmlPage = (description: string, example?: string) => ({
  description,
  content: { 'text/html': { schema: Type.String(), ...(example ? { example } : {}) } },
});

export const HTML_PAGE_EXAMPLE = '<!doctype html><html lang="pt-BR">…</html>';
