import { createRequire } from 'node:module';

/** Query parameters whose values may be a CPF/CNPJ (search) or the PSP's webhook secret (hmac). */
const SENSITIVE_PARAMS = new Set(['search', 'hmac']);

/**
 * A parameter's name as the query parser reads it: `+` is a space and %XX a byte, so `%73earch` is
 * `search` and filters like it. A name that does not decode whole still has each valid %XX read, so
 * a stray `%` beside an encoded letter cannot hide it.
 */
function decodedName(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/**
 * A request URL fit for the log: the values of sensitive query parameters censored. Names are
 * compared decoded, since the server filters on the decoded name and an encoded one must not slip by.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const params = url
    .slice(mark + 1)
    .split('&')
    .map((param) => {
      const equals = param.indexOf('=');
      const name = equals === -1 ? param : param.slice(0, equals);
      return SENSITIVE_PARAMS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : param;
    });
  return `${url.slice(0, mark + 1)}${params.join('&')}`;
}

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
