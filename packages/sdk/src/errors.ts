import { ERROR_STATUS, type ErrorCode } from './generated.js';

export { ERROR_STATUS, type ErrorCode };

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** A refusal of the API: `code` is one of the documented error codes (docs/guides/errors.md). */
export class LastroError extends Error {
  override readonly name: string = 'LastroError';
  constructor(
    message: string,
    /** The documented error code, e.g. `insufficient_balance`. */
    readonly code: ErrorCode,
    /** The HTTP status. */
    readonly status: number,
    /** The `X-Request-Id` of the response: quote it to support. */
    readonly requestId: string | undefined,
    /** Which fields a validation failure concerns. */
    readonly details: ErrorDetail[] = [],
    /** Seconds the API asked to wait (`Retry-After`), on 429 and 503. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** 400: the request is malformed or breaks a rule of its body (see `details`). */
export class InvalidRequestError extends LastroError {
  override readonly name = 'InvalidRequestError';
}
/** 401: no, unknown, revoked or expired credentials, or a missing/wrong one-time code. */
export class AuthenticationError extends LastroError {
  override readonly name = 'AuthenticationError';
}
/** 403: the caller may not do this (environment, production, settlement key, whitelist, KYC). */
export class PermissionError extends LastroError {
  override readonly name = 'PermissionError';
}
/** 404: unknown route or id, or an id the caller may not see. */
export class NotFoundError extends LastroError {
  override readonly name = 'NotFoundError';
}
/** 409: the resource is in the way (idempotency key reuse, slug taken, quote executed, exists). */
export class ConflictError extends LastroError {
  override readonly name = 'ConflictError';
}
/** 422: valid request the current state refuses (balance, expired quote, invalid split or state). */
export class UnprocessableError extends LastroError {
  override readonly name = 'UnprocessableError';
}
/** 429: over the allowance; the client already retried with backoff. */
export class RateLimitError extends LastroError {
  override readonly name = 'RateLimitError';
}
/** 5xx: the server or a provider behind it failed; the client already retried 503s. */
export class ServerError extends LastroError {
  override readonly name = 'ServerError';
}
/** No HTTP answer at all (connection refused, reset, DNS) after every attempt. */
export class LastroConnectionError extends Error {
  override readonly name = 'LastroConnectionError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

const BY_STATUS: Record<number, typeof LastroError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableError,
  429: RateLimitError,
};

const isCode = (value: unknown): value is ErrorCode => typeof value === 'string' && value in ERROR_STATUS;

/** The typed error of a non-2xx response whose body has been read as `body`. */
export function errorFromResponse(response: Response, body: unknown): LastroError {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: unknown;
    message?: unknown;
    details?: unknown;
  };
  const status = response.status;
  const code: ErrorCode = isCode(parsed.error)
    ? parsed.error
    : status >= 500
      ? 'internal_error'
      : 'invalid_request';
  const message =
    typeof parsed.message === 'string' ? parsed.message : `HTTP ${status} ${response.statusText}`.trim();
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  const Class = BY_STATUS[status] ?? (status >= 500 ? ServerError : LastroError);
  return new Class(
    message,
    code,
    status,
    response.headers.get('x-request-id') ?? undefined,
    Array.isArray(parsed.details) ? (parsed.details as ErrorDetail[]) : [],
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}
