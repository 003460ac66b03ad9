/** Every error code of the public contract and its HTTP status: the one place they are mapped. */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_amount: 400,
  pix_key_required: 400,
  invalid_pix_key: 400,
  invalid_address: 400,
  unsupported_network: 400,
  unsupported_currency: 400,
  workspace_id_required: 400,
  missing_credentials: 401,
  invalid_credentials: 401,
  api_key_revoked: 401,
  otp_required: 401,
  otp_invalid: 401,
  environment_mismatch: 403,
  production_not_enabled: 403,
  forbidden: 403,
  settlement_key_required: 403,
  destination_not_whitelisted: 403,
  kyc_not_approved: 403,
  not_found: 404,
  request_timeout: 408,
  idempotency_key_reuse: 409,
  idempotency_key_in_use: 409,
  conflict: 409,
  slug_taken: 409,
  quote_already_executed: 409,
  payload_too_large: 413,
  insufficient_balance: 422,
  quote_expired: 422,
  subaccount_depth_exceeded: 422,
  invalid_split: 422,
  invalid_state: 422,
  amount_out_of_range: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  provider_unavailable: 503,
  database_unavailable: 503,
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  issue: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): { error: ErrorCode; message: string; details?: ErrorDetail[] } {
    return this.details
      ? { error: this.code, message: this.message, details: this.details }
      : { error: this.code, message: this.message };
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const invalidRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError('invalid_request', message, details);

/** PostgreSQL error codes that stand for a caller's mistake rather than a server fault. */
export function pgErrorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}
export const LOCK_NOT_AVAILABLE = '55P03';
export const UNIQUE_VIOLATION = '23505';
