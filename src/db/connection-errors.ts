/**
 * Errors that mean "the database connection is gone or cannot be made", as opposed to an error the
 * database answered about the statement. The request that meets one answers 503
 * database_unavailable (src/platform/http-errors.ts); the next request gets a fresh connection.
 */

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, and class 08 (connection exception). */
const SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const SQLSTATE_CLASS = '08';

/** Socket and resolver failures Node reports while connecting to or talking with the server. */
const ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages pg (and PGlite, while it closes) throw with no code. */
const MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^PGlite is clos(ed|ing)/,
];

export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (SQLSTATES.has(code) || ERRNOS.has(code)) return true;
    // A Unix socket's file is gone while its server is stopped.
    if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
    if (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(SQLSTATE_CLASS)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  // A dual-stack connect (localhost on ::1 and 127.0.0.1) fails with an AggregateError of both attempts.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionError);
}
