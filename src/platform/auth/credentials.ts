import type { Environment } from '../context.ts';
import { randomBase62, sha256 } from '../secrets.ts';

export const SESSION_PREFIX = 'lastro_sess_';
export const KEY_PREFIX: Record<Environment, string> = {
  sandbox: 'lastro_test_sk_',
  live: 'lastro_live_sk_',
};
const SECRET_LENGTH = 40;
export const SESSION_COOKIE = 'lastro_session';

export const newApiKeySecret = (environment: Environment) =>
  KEY_PREFIX[environment] + randomBase62(SECRET_LENGTH);
export const newSessionToken = () => SESSION_PREFIX + randomBase62(SECRET_LENGTH);

export type ParsedCredential =
  | { kind: 'session'; token: string }
  | { kind: 'api_key'; token: string; environment: Environment }
  | { kind: 'unknown' };

export function parseCredential(token: string): ParsedCredential {
  if (token.startsWith(SESSION_PREFIX)) return { kind: 'session', token };
  if (token.startsWith(KEY_PREFIX.sandbox)) return { kind: 'api_key', token, environment: 'sandbox' };
  if (token.startsWith(KEY_PREFIX.live)) return { kind: 'api_key', token, environment: 'live' };
  return { kind: 'unknown' };
}

/**
 * The bearer token of the Authorization header, or the session cookie when there is no header. The
 * cookie carries sessions only: anything else in it is '' (an invalid credential), so an API key
 * cannot ride on a browser's ambient cookie.
 */
export function extractToken(
  authorization: string | undefined,
  cookie: string | undefined,
): string | undefined {
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? '';
  }
  if (!cookie) return undefined;
  return cookie.startsWith(SESSION_PREFIX) ? cookie : '';
}

const digests = new WeakMap<object, { token: string; digest: Buffer }>();

/**
 * SHA-256 of the request's credential, computed once a request: the rate limit keys its allowance by
 * it and authentication looks the key up by it. Kept on the request, never by the secret itself.
 */
export function credentialDigest(request: object, token: string): Buffer {
  const known = digests.get(request);
  if (known !== undefined && known.token === token) return known.digest;
  const digest = sha256(token);
  digests.set(request, { token, digest });
  return digest;
}
