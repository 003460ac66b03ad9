import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/**
 * The error codes a route can answer: its own list (config.errors, the codes its handler and services
 * throw) merged with the ones every route of its kind answers, which are declared once here. The
 * OpenAPI document renders the merged list as one response per status; in tests a hook
 * (src/platform/http/declared-errors.ts) records any code a route answers outside it.
 */
export interface ErrorListRoute {
  method: string;
  url: string;
  config: { auth?: string; errors?: readonly ErrorCode[]; subaccount?: boolean };
  schema?: { body?: unknown; querystring?: unknown };
}

/** What any request can meet before or around its handler: parsing, limits, load, faults. */
export const PLATFORM_ERRORS: readonly ErrorCode[] = [
  'invalid_request',
  'payload_too_large',
  'headers_too_large',
  'request_timeout',
  'rate_limited',
  'internal_error',
  'database_unavailable',
  'overloaded',
];

/** Bearer credentials (an API key or a session) checked on every /v1/{env} route. */
const CREDENTIAL_ERRORS: readonly ErrorCode[] = [
  'missing_credentials',
  'invalid_credentials',
  'api_key_revoked',
  'workspace_id_required',
  'environment_mismatch',
  'production_not_enabled',
  'forbidden',
  // An env other than sandbox/live/test, or a sandbox helper called on live, is no route at all.
  'not_found',
];

const SESSION_ERRORS: readonly ErrorCode[] = ['missing_credentials', 'invalid_credentials', 'forbidden'];
const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = ['idempotency_key_reuse', 'idempotency_key_in_use'];
const WRITES = ['POST', 'PUT', 'PATCH'];

/** A body or query with an amount in minor units can be refused as invalid_amount by validation. */
function takesAmount(schema: ErrorListRoute['schema']): boolean {
  const text = JSON.stringify([schema?.body ?? null, schema?.querystring ?? null]);
  return /_minor"/.test(text);
}

/** The codes every route of this kind answers, whatever its handler does. */
export function commonErrors(route: ErrorListRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(PLATFORM_ERRORS);
  const auth = route.config.auth ?? 'any';
  if (route.url.startsWith('/v1/:env/') && auth !== 'none')
    for (const code of CREDENTIAL_ERRORS) codes.add(code);
  else if (auth === 'user' || auth === 'session') for (const code of SESSION_ERRORS) codes.add(code);
  if (WRITES.includes(route.method)) for (const code of IDEMPOTENCY_ERRORS) codes.add(code);
  if (takesAmount(route.schema)) codes.add('invalid_amount');
  return [...codes];
}

/** The route's whole list, in the catalogue's order; undefined when it declares none yet. */
export function routeErrors(route: ErrorListRoute): ErrorCode[] | undefined {
  if (!route.config.errors) return undefined;
  const codes = new Set<ErrorCode>([...route.config.errors, ...commonErrors(route)]);
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}

/** The codes by HTTP status, statuses ascending. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return new Map([...groups].sort(([a], [b]) => a - b));
}

/** A typical message of each code, for the document's error examples (the real ones say more). */
export const EXAMPLE_MESSAGE: Record<ErrorCode, string> = {
  invalid_request: 'Invalid body: body.amount_minor is required.',
  invalid_amount: 'amount_minor must be a positive integer string of minor units.',
  pix_key_required: 'Send pix_key.',
  invalid_pix_key: 'pix_key is not a valid CPF, CNPJ, e-mail, phone or EVP key.',
  invalid_address: 'to_address is not an address of this network.',
  unsupported_network: 'network must be one of the supported networks.',
  unsupported_currency: 'PIX moves BRL only.',
  workspace_id_required: 'Send X-Workspace-Id with the workspace UUID.',
  missing_credentials: 'Send Authorization: Bearer <API key>.',
  invalid_credentials: 'The credentials are not valid for this workspace.',
  api_key_revoked: 'This API key has been revoked.',
  otp_required: 'Send the current 2FA code.',
  otp_invalid: 'The 2FA code is not valid.',
  environment_mismatch: 'A sandbox key cannot call a live path.',
  production_not_enabled: 'The workspace owner has not enabled production yet.',
  forbidden: 'This route takes a dashboard session, not an API key.',
  settlement_key_required: 'Register a settlement key first.',
  destination_not_whitelisted: 'to_address is not whitelisted on this network.',
  kyc_not_approved: 'The party has no approved KYC case.',
  not_found: 'Payment not found',
  request_timeout: 'The request did not arrive whole in time; send it again.',
  idempotency_key_reuse: 'This Idempotency-Key was used with a different request.',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still running.',
  conflict: 'The resource already exists.',
  slug_taken: 'This slug is taken.',
  quote_already_executed: 'This quote has been executed.',
  payload_too_large: 'The request body is larger than 1 MiB.',
  insufficient_balance: 'The available balance does not cover the amount and its fee.',
  quote_expired: 'The quote has expired.',
  subaccount_depth_exceeded: 'A sub-account cannot have sub-accounts.',
  invalid_split: 'The shares must add up to 10000 bps.',
  invalid_state: 'The charge is not paid.',
  amount_out_of_range: "The next cycle's amount must be at least the subscription's minimum_minor of 2990.",
  rate_limited: 'Too many requests; retry after the time in Retry-After.',
  headers_too_large: 'The request headers are larger than 16 KB.',
  internal_error: 'Something went wrong on our side; quote the X-Request-Id to support.',
  provider_unavailable: 'The PIX provider is unavailable; nothing was moved, retry later.',
  database_unavailable: 'The database is unavailable; retry after Retry-After.',
  overloaded: 'Too many writes at once; retry after Retry-After.',
};
