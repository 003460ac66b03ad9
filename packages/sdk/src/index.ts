export { Lastro, type LastroOptions } from './client.ts';
export {
  AuthenticationError,
  ConflictError,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorDetail,
  errorFromResponse,
  InvalidRequestError,
  LastroConnectionError,
  LastroError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  UnprocessableError,
} from './errors.ts';
export { DEFAULT_RETRY, RETRY_STATUSES, type RetryOptions, retryDelayMs } from './retry.ts';
export type {
  components,
  Environment,
  EventType,
  ItemOf,
  LastroPaths,
  ListPath,
  paths,
  ResultOf,
  WebhookEvent,
} from './types.ts';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';
