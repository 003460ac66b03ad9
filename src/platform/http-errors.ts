import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError } from '../db/connection-errors.ts';
import { isRetryable } from '../db/types.ts';
import { type SchemaIssue, UNKNOWN_FIELD } from './body-schema.ts';
import { AppError, type ErrorDetail, pgErrorCode } from './errors.ts';
import { NOT_BLANK } from './schema.ts';

/** Enumerations longer than this are not spelt out in an issue. */
const MAX_LISTED_VALUES = 20;

/** The field an issue is about: the path below the request part, dotted (`body.payer.name`). */
function fieldOf(context: string, issue: SchemaIssue): string {
  let pointer = issue.instancePath;
  const asPointer = (key: unknown) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');
  if (issue.keyword === 'required') pointer += `/${asPointer(issue.params.missingProperty)}`;
  if (issue.keyword === 'additionalProperties') pointer += `/${asPointer(issue.params.additionalProperty)}`;
  // A JSON pointer escapes / and ~ inside a key; the field names the key as the caller sent it.
  const keys = pointer.split('/').slice(1);
  const dotted = keys.map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~')).join('.');
  return keys.length ? `${context}.${dotted}` : context;
}

function issueOf(issue: SchemaIssue): string {
  if (issue.keyword === 'additionalProperties' || issue.keyword === UNKNOWN_FIELD) return 'unknown field';
  if (issue.keyword === 'pattern' && issue.params.pattern === NOT_BLANK) return 'must not be blank';
  if (issue.propertyName !== undefined) return `a key ${issue.message ?? 'is not accepted'}`;
  return issue.message ?? issue.keyword;
}

/** The values a const or enum issue allows, so a union of literals is named in one issue. */
const allowedOf = (issue: SchemaIssue): unknown[] | undefined =>
  issue.keyword === 'const'
    ? [issue.params.allowedValue]
    : issue.keyword === 'enum'
      ? (issue.params.allowedValues as unknown[])
      : undefined;

/**
 * One detail per field: a union reports a failure per branch and one for itself, which say one thing
 * to the caller. The first issue of a field stands, except that literals are gathered into
 * "must be one of".
 */
function validationDetails(context: string, issues: SchemaIssue[]): ErrorDetail[] {
  const byField = new Map<string, { issue: string; allowed?: unknown[] }>();
  for (const issue of issues) {
    const field = fieldOf(context, issue);
    const allowed = allowedOf(issue);
    const seen = byField.get(field);
    if (!seen) byField.set(field, { issue: issueOf(issue), ...(allowed ? { allowed: [...allowed] } : {}) });
    else if (seen.allowed && allowed) seen.allowed.push(...allowed);
  }
  return [...byField].map(([field, { issue, allowed }]) => ({
    field,
    issue:
      allowed && allowed.length <= MAX_LISTED_VALUES
        ? `must be one of: ${allowed.map(String).join(', ')}`
        : issue,
  }));
}

/**
 * PostgreSQL data errors that only a caller's input can cause (text with NUL, a date PostgreSQL
 * cannot hold, a number past BIGINT): the write rolled back, and the caller hears it was the input.
 */
const unstorableText = () =>
  new AppError('invalid_request', 'Text cannot contain NUL (U+0000) or a lone surrogate.');
// NUL reaches PostgreSQL as 22021 in a text column and as 22P05 in jsonb: one cause, one answer.
// Bodies are refused before this (json-guard, naming the field); this is what a query string meets.
const DATA_ERRORS: Record<string, (request: FastifyRequest) => AppError> = {
  '22P05': unstorableText,
  '22021': unstorableText,
  '22007': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22009': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22008': () => new AppError('invalid_request', 'A date-time is outside the range this API accepts.'),
  '22003': (request) =>
    new AppError(
      'invalid_amount',
      'The amount is outside the range the ledger can hold.',
      amountDetails(request, 'is outside the range the ledger can hold'),
    ),
};

/**
 * The amount field of the request's body (`amount_minor`, `base_amount_minor`), which a number past
 * BIGINT can only have come from; none when the body has no amount (the amount was a stored one).
 */
function amountDetails(request: FastifyRequest, issue: string): ErrorDetail[] | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const key = Object.keys(body).find((name) => name.endsWith('amount_minor'));
  return key ? [{ field: `body.${key}`, issue }] : undefined;
}

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
  const fastifyError = error as FastifyError & { validation?: SchemaIssue[]; validationContext?: string };
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'body';
    const details = validationDetails(context, fastifyError.validation);
    const amountIssue = details.find(
      (detail) => /amount_minor$/.test(detail.field) && detail.issue !== 'unknown field',
    );
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
  if (dataError) return dataError(request);
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
