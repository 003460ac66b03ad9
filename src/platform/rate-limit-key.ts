import type { FastifyRequest } from 'fastify';
import { credentialDigest, extractToken, parseCredential, SESSION_COOKIE } from './auth/credentials.ts';

/**
 * Whose allowance a request spends: the credential's on a route that authenticates (read with the
 * same parser authentication uses, so `bearer`, `BEARER` and extra spaces are one key), else the
 * client address. A route that needs no credential (login, signup, health) always counts per
 * address, whatever Authorization header is sent, so a junk header buys no fresh allowance; so
 * does a token that cannot be a credential at all.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const mode = request.routeOptions.config?.auth;
  const authenticates =
    mode === 'user' || (request.routeOptions.url?.startsWith('/v1/:env') === true && mode !== 'none');
  if (authenticates) {
    const token = extractToken(request.headers.authorization, request.cookies?.[SESSION_COOKIE]);
    if (token && parseCredential(token).kind !== 'unknown')
      return `cred:${credentialDigest(request, token).toString('base64')}`;
  }
  return `ip:${request.ip}`;
}
