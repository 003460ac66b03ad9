export { Lastro, type LastroOptions } from './client.js';
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
} from './errors.js';
// The API version these types describe: a server whose OpenAPI `info.version` differs may not match them.
export { API_VERSION } from './generated.js';
export { DEFAULT_RETRY, RETRY_STATUSES, type RetryOptions, retryDelayMs } from './retry.js';
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
} from './types.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
