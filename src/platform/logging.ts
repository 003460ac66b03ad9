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
  '*.holder_document',
  '*.receiver_document',
  '*.private_key',
  '*.api_key',
];
