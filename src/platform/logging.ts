/** Query parameters whose values may be a CPF/CNPJ (customer and payer search). */
const SENSITIVE_QUERY = /([?&]search=)[^&]*/gi;

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
