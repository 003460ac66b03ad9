/**
 * The dashboard's only way to the server: the public API, authenticated by the HttpOnly session
 * cookie the login set (the page never sees the token), plus X-Workspace-Id on every /v1/{env} call.
 */
import { ACTING_GROUPS } from '@lastro/sdk/generated';
import { errorMessage } from './error-messages.ts';
import { getLocale } from './i18n.ts';
import type { ErrorBody, ErrorCode, ErrorDetail } from './schema.ts';

export type Env = 'sandbox' | 'live';

/** The API's codes, and the page's own when no API answer could be read. */
export type ApiErrorCode = ErrorCode | 'bad_response' | 'unknown_error' | 'network';

/**
 * A refusal; its `message` is the dashboard's own sentence for the code in the page's language (the
 * server's English one is kept in `serverMessage`, for logs and tests only).
 */
export class ApiError extends Error {
  readonly serverMessage: string;
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    serverMessage: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(errorMessage(code, details, getLocale()));
    this.serverMessage = serverMessage;
  }
}

interface Scope {
  workspaceId: string | null;
  env: Env;
  subaccountId: string | null;
}

const scope: Scope = { workspaceId: null, env: 'sandbox', subaccountId: null };
let onSignedOut: () => void = () => {};

export function setScope(next: Partial<Scope>): void {
  Object.assign(scope, next);
}
export const currentEnv = (): Env => scope.env;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/**
 * Whether `path` is in a group that takes X-Subaccount-Id (the API's own list); elsewhere it is refused.
 * A file of a group (/statement.csv) is in it too.
 */
const acting = (path: string): boolean =>
  ACTING_GROUPS.some((group) => {
    const next = path.charAt(group.length + 1);
    return path.startsWith(`/${group}`) && (next === '' || next === '/' || next === '?' || next === '.');
  });

export interface CallOptions {
  /** The authenticator code a 2FA session must send with a crypto send. */
  otp?: string;
  /** Money-moving creates carry one, so a double click or a retry never pays twice. */
  idempotent?: boolean;
}

/** `path` is either /v1/auth/… or a path under /v1/{env} (e.g. "/payments?limit=20"). */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<T> {
  const response = await send(method, path, 'application/json', body, options);
  const text = await response.text();
  let parsed: { data?: T } & Partial<ErrorBody> = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(response.status, 'bad_response', `The server answered ${response.status}.`);
  }
  if (!response.ok) throw failure(response, parsed, path);
  return parsed.data as T;
}

/** A file the API answers (a CSV), with the name its Content-Disposition gives; errors as `api` throws them. */
export async function download(
  path: string,
  accept: string,
): Promise<{ blob: Blob; filename: string | null }> {
  const response = await send('GET', path, accept);
  if (!response.ok) {
    let parsed: Partial<ErrorBody> = {};
    try {
      parsed = JSON.parse(await response.text());
    } catch {
      throw new ApiError(response.status, 'bad_response', `The server answered ${response.status}.`);
    }
    throw failure(response, parsed, path);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  return { blob: await response.blob(), filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}

function send(method: string, path: string, accept: string, body?: unknown, options: CallOptions = {}) {
  const auth = path.startsWith('/v1/');
  const url = auth ? path : `/v1/${scope.env}${path}`;
  const headers: Record<string, string> = { accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (!auth && scope.workspaceId) headers['x-workspace-id'] = scope.workspaceId;
  if (!auth && scope.subaccountId && acting(path)) headers['x-subaccount-id'] = scope.subaccountId;
  if (options.otp) headers['x-otp-code'] = options.otp;
  if (options.idempotent) headers['idempotency-key'] = crypto.randomUUID();
  return fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function failure(response: Response, parsed: Partial<ErrorBody>, path: string): ApiError {
  const error = new ApiError(
    response.status,
    (parsed.error as ErrorCode | undefined) ?? 'unknown_error',
    parsed.message ?? `The server answered ${response.status}.`,
    parsed.details ?? [],
  );
  // A session that ended (expired, logged out elsewhere) sends the person back to the login form.
  if (
    !path.startsWith('/v1/auth/login') &&
    ['invalid_credentials', 'missing_credentials'].includes(error.code)
  )
    onSignedOut();
  return error;
}

export const query = (params: Record<string, string | number | undefined | null>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
