import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, LastroConnectionError } from './errors.js';
import { SUBACCOUNT_ROUTES } from './generated.js';
import { DEFAULT_RETRY, fetchWithRetry, type RetryOptions } from './retry.js';
import type {
  CallInit,
  Environment,
  HttpMethod,
  InitArgs,
  ItemOf,
  LastroPaths,
  ListPath,
  PathsOf,
  ResultOf,
} from './types.js';
import { verifyWebhook } from './webhooks.js';

export interface LastroOptions {
  /** `lastro_test_sk_…` or `lastro_live_sk_…` (a dashboard session `lastro_sess_…` works too). */
  apiKey: string;
  /** The workspace every call acts in (`X-Workspace-Id`). */
  workspaceId: string;
  /** Default `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** Default: `live` for a live key, else `sandbox`. */
  environment?: Environment;
  /** Act on one of your sub-accounts (`X-Subaccount-Id`) in every call that takes it. */
  subaccountId?: string;
  retry?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

// Routes that take X-Subaccount-Id (the others refuse it), as patterns of their paths.
const SUBACCOUNT_PATTERNS = SUBACCOUNT_ROUTES.map((route) => {
  const [method, path] = route.split(' ') as [string, string];
  return { method, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
});
const takesSubaccount = (method: string, url: URL) =>
  SUBACCOUNT_PATTERNS.some((route) => route.method === method && route.pattern.test(url.pathname));

const baseUrlOf = (options: { baseUrl?: string }) =>
  (options.baseUrl ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

/** Writes under /v1/{env} get an Idempotency-Key of their own unless the call gives one (sign-up and login take none). */
const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const KEYED_PATH = /^\/v1\/(?:sandbox|live|test)\//;

type Call<Method extends HttpMethod> = <Path extends PathsOf<Method>>(
  path: Path,
  ...init: InitArgs<CallInit<Path, Method>>
) => Promise<ResultOf<Path, Method>>;

/**
 * The Lastro API client. Every call resolves to the `data` of the answer or throws a LastroError;
 * 429, 503 and network failures are retried with the same Idempotency-Key.
 *
 *   const lastro = new Lastro({ apiKey, workspaceId, baseUrl });
 *   const payout = await lastro.post('/v1/{env}/pix/payouts', { body: { amount_minor: '2500', pix_key } });
 */
export class Lastro {
  readonly environment: Environment;
  /** The openapi-fetch client underneath, for what the helpers do not cover (`parseAs: 'blob'`). */
  readonly api: Client<LastroPaths>;
  readonly webhooks = { verify: verifyWebhook };

  constructor(private readonly options: LastroOptions) {
    if (!options.apiKey) throw new TypeError('Lastro: apiKey is required');
    if (!options.workspaceId) throw new TypeError('Lastro: workspaceId is required');
    this.environment =
      options.environment ?? (options.apiKey.startsWith('lastro_live_') ? 'live' : 'sandbox');
    // An option given as undefined keeps its default (spread, it would erase it: endless retries).
    const given = Object.entries(options.retry ?? {}).filter(([, value]) => value !== undefined);
    const retry = { ...DEFAULT_RETRY, ...Object.fromEntries(given) } as Required<RetryOptions>;
    const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.api = createClient<LastroPaths>({
      baseUrl: baseUrlOf(options),
      fetch: (request) =>
        this.prepare(request)
          .then((prepared) => fetchWithRetry(prepared, send, retry))
          .catch((error: unknown) => {
            throw new LastroConnectionError(`Lastro: no answer from ${new URL(request.url).origin}`, error);
          }),
    });
  }

  /**
   * Creates a user, their workspace and a dashboard session (no credential needed). The session
   * then creates API keys: `new Lastro({ apiKey: session_token, workspaceId, environment: 'sandbox' })`.
   */
  static async signup(
    body: { email: string; password: string; workspace_name: string },
    options: Pick<LastroOptions, 'baseUrl' | 'fetch'> = {},
  ): Promise<ResultOf<'/v1/auth/signup', 'post'>> {
    const api = createClient<LastroPaths>({
      baseUrl: baseUrlOf(options),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const { data, error, response } = await api.POST('/v1/auth/signup', { body });
    if (!response.ok || !data) throw errorFromResponse(response, error);
    return data.data;
  }

  /** The same client acting on one of your sub-accounts. */
  forSubaccount(subaccountId: string): Lastro {
    return new Lastro({ ...this.options, subaccountId });
  }

  readonly get: Call<'get'> = (path, ...init) => this.call(this.api.GET(path as never, ...(init as [])));
  readonly post: Call<'post'> = (path, ...init) => this.call(this.api.POST(path as never, ...(init as [])));
  readonly put: Call<'put'> = (path, ...init) => this.call(this.api.PUT(path as never, ...(init as [])));
  readonly patch: Call<'patch'> = (path, ...init) =>
    this.call(this.api.PATCH(path as never, ...(init as [])));
  readonly delete: Call<'delete'> = (path, ...init) =>
    this.call(this.api.DELETE(path as never, ...(init as [])));

  /**
   * Every item of a list, page after page (newest first), fetched as the loop asks for them.
   *
   *   for await (const payment of lastro.list('/v1/{env}/payments', { params: { query: { kind: 'pix_cash_out' } } })) …
   */
  async *list<Path extends ListPath>(
    path: Path,
    ...init: InitArgs<CallInit<Path, 'get'>>
  ): AsyncGenerator<ItemOf<Path>, void, undefined> {
    const base = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    const query: Record<string, unknown> = { limit: 100, ...base.params?.query };
    const limit = Number(query.limit);
    for (;;) {
      const page = (await this.get(
        path as PathsOf<'get'>,
        {
          ...base,
          params: { ...base.params, query },
        } as never,
      )) as unknown;
      const items = (Array.isArray(page) ? page : (page as { items: unknown[] }).items) as ItemOf<Path>[];
      yield* items;
      const cursor = Array.isArray(page)
        ? items.length < limit
          ? null
          : (items.at(-1) as { id?: string } | undefined)?.id
        : (page as { next_cursor: string | null }).next_cursor;
      if (!cursor) return;
      if (cursor === query.cursor) throw new Error(`Lastro: ${path} gave cursor ${cursor} again; stopping`);
      query.cursor = cursor;
    }
  }

  /** Fills `{env}`, sets the credential and workspace headers, and keys every write. */
  private async prepare(request: Request): Promise<Request> {
    const url = new URL(request.url.replace(/\/v1\/(?:\{env\}|%7Benv%7D)\//i, `/v1/${this.environment}/`));
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${this.options.apiKey}`);
    headers.set('x-workspace-id', this.options.workspaceId);
    if (this.options.subaccountId && !headers.has('x-subaccount-id') && takesSubaccount(request.method, url))
      headers.set('x-subaccount-id', this.options.subaccountId);
    if (WRITES.has(request.method) && KEYED_PATH.test(url.pathname) && !headers.has('idempotency-key'))
      headers.set('idempotency-key', crypto.randomUUID());
    // Buffered (bodies are at most 1 MiB), so every retry sends it again whole.
    const body = request.body ? await request.arrayBuffer() : undefined;
    return new Request(url, { method: request.method, headers, body, signal: request.signal });
  }

  private async call<T>(
    pending: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  ): Promise<T> {
    const { data, error, response } = await pending;
    if (!response.ok) throw errorFromResponse(response, error);
    return (data as { data: T }).data;
  }
}
