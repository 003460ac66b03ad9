import { createRequire } from 'node:module';

/** Query parameters whose values may be a CPF/CNPJ (search) or the PSP's webhook secret (hmac). */
const SENSITIVE_QUERY = /([?&](?:search|hmac)=)[^&]*/gi;

/** A request URL fit for the log: the values of sensitive query parameters censored. */
export const redactUrl = (url: string) => url.replace(SENSITIVE_QUERY, '$1[redacted]');

/** Never logged: credentials, OTPs, documents, key material. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-otp-code"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.session_token',
  '*.otp_code',
  '*.document',
  '*.document_number',
  '*.answer',
  '*.holder_document',
  '*.receiver_document',
  '*.private_key',
  '*.api_key',
];

/**
 * Readable log lines for a person at a terminal: pino-pretty (a dev dependency) when stdout is a TTY,
 * outside production, and only when it is installed. Redaction happens before the transport, so the
 * lines hide what the JSON hides. Anything else (production, pipes, files) gets JSON lines.
 */
export function prettyTransport(
  production: boolean,
  stdout: { isTTY?: boolean } = process.stdout,
): { target: string; options: Record<string, unknown> } | undefined {
  if (production || !stdout.isTTY) return undefined;
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };
}
