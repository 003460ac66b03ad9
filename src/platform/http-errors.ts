import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError } from '../db/connection-errors.ts';
import { isRetryable } from '../db/types.ts';
import { AppError, type ErrorDetail, pgErrorCode } from './errors.ts';

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function validationDetails(context: string, issues: AjvIssue[]): ErrorDetail[] {
  return issues.map((issue) => {
    const missing = issue.keyword === 'required' ? `/${String(issue.params.missingProperty)}` : '';
    const pointer = `${issue.instancePath}${missing}`.replace(/^\//, '').replaceAll('/', '.');
    return { field: pointer ? `${context}.${pointer}` : context, issue: issue.message ?? issue.keyword };
  });
}

/**
 * PostgreSQL data errors that only a caller's input can cause (text with NUL, a date PostgreSQL
 * cannot hold, a number past BIGINT): the write rolled back, and the caller hears it was the input.
 */
const DATA_ERRORS: Record<string, () => AppError> = {
  '22P05': () =>
    new AppError(
      'invalid_request',
      'Text fields cannot contain NUL or other characters PostgreSQL cannot store.',
    ),
  '22021': () => new AppError('invalid_request', 'Text fields must be valid UTF-8.'),
  '22007': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22009': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22008': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22003': () => new AppError('invalid_amount', 'The amount is outside the range the ledger can hold.'),
};

/** The database cannot be reached: nothing was written (or, lost during COMMIT, it is unknown); retry. */
export const databaseUnavailable = () =>
  new AppError(
    'database_unavailable',
    'The database is not answering; retry after the time in Retry-After.',
    undefined,
    { 'retry-after': '1' },
  );

/** Maps any thrown error to the public {error, message} shape. Internals never reach the body. */
export function toAppError(error: FastifyError | AppError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'body';
    const details = validationDetails(context, fastifyError.validation);
    const amountIssue = details.find((detail) => /amount_minor$/.test(detail.field));
    if (amountIssue) {
      return new AppError(
        'invalid_amount',
        `${amountIssue.field} must be a string of 1 to 16 digits.`,
        details,
      );
    }
    return new AppError(
      'invalid_request',
      `Invalid ${context}: ${details[0]?.field} ${details[0]?.issue}.`,
      details,
    );
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'The request body is not valid JSON.', [
        { field: 'body', issue: fastifyError.message },
      ]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Send the body as application/json.', [
        { field: 'headers.content-type', issue: 'must be application/json' },
      ]);
  }
  const dataError = DATA_ERRORS[pgErrorCode(error) ?? ''];
  if (dataError) return dataError();
  if (isConnectionError(error)) {
    request.log.warn({ err: error }, 'database connection lost');
    return databaseUnavailable();
  }
  // A deadlock or serialization failure (after the transaction's retries, where it has them) is
  // contention, not a defect: this request's transaction rolled back, its idempotency claim with it.
  if (isRetryable(error)) {
    request.log.warn({ err: error }, 'write conflicted with concurrent writes');
    return new AppError(
      'overloaded',
      "This request's write conflicted with concurrent writes and was rolled back. Retry after the time in Retry-After with the same Idempotency-Key.",
      undefined,
      { 'retry-after': '1' },
    );
  }
  if (fastifyError.statusCode === 429) {
    return new AppError('rate_limited', 'Too many requests; retry after the time in Retry-After.');
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('invalid_request', 'The request could not be understood.');
  }
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(
    'internal_error',
    `Something went wrong on our side. Quote request id ${request.id} to support.`,
  );
}

export function sendError(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error, request);
  if (appError.headers) reply.headers(appError.headers);
  return reply.status(appError.status).send(appError.toBody());
}
