import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { ConfigError } from '../../../config-error.ts';
import { AppError } from '../../../platform/errors.ts';

/** An RFC 7807 problem as the API Pix sends it, or Efí's `{nome, mensagem}`. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  nome?: string;
  mensagem?: string;
}

/** The PSP refused the request itself (4xx other than 401/404): retrying the same call cannot help. */
export class PspRejected extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(`PSP refused (${status}): ${problem.title ?? problem.nome ?? problem.type ?? 'no details'}`);
  }

  /** A short failure_reason for the payment: the problem's type name, e.g. psp_rejected:CobOperacaoInvalida. */
  get reason(): string {
    const name = (this.problem.type ?? this.problem.nome ?? '').split('/').pop() || String(this.status);
    return `psp_rejected:${name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60)}`;
  }
}

export interface PspResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a PSP's JSON, checked field by field by its reader
  body: any;
}

export interface MtlsSettings {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  certFile: string;
  keyFile: string;
  caFile: string | undefined;
  timeoutMs: number;
}

const MAX_BODY = 1 << 20;
const unavailable = (why: string) => new AppError('provider_unavailable', `The PIX provider ${why}.`);

function pem(setting: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    throw new ConfigError(setting, `cannot read the file ${file}`);
  }
}

/**
 * HTTPS with our client certificate (mutual TLS, as the API Pix requires) and an OAuth2
 * client-credentials token, cached until shortly before it expires and fetched again once when the
 * PSP answers 401. A timeout, a network error or a 5xx is 503 provider_unavailable: the caller's
 * job retries; a refusal is a PspRejected; 404 comes back as a response.
 */
export class MtlsClient {
  private readonly agent: Agent;
  private token: { value: string; expiresAt: number } | undefined;
  private pendingToken: Promise<string> | undefined;

  constructor(
    private readonly settings: MtlsSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.agent = new Agent({
      cert: pem('PIX_BCB_CERT_FILE', settings.certFile),
      key: pem('PIX_BCB_KEY_FILE', settings.keyFile),
      ...(settings.caFile ? { ca: pem('PIX_BCB_CA_FILE', settings.caFile) } : {}),
      keepAlive: true,
      minVersion: 'TLSv1.2',
    });
  }

  async call(
    method: 'GET' | 'PUT' | 'POST' | 'PATCH',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<PspResponse> {
    let response = await this.authorized(method, url, body, headers, false);
    if (response.status === 401) response = await this.authorized(method, url, body, headers, true);
    if (response.status === 401 || response.status === 403) throw unavailable('refused our credentials');
    if (response.status >= 500 || response.status === 429) throw unavailable(`failed (${response.status})`);
    if (response.status >= 400 && response.status !== 404) {
      throw new PspRejected(response.status, (response.body ?? {}) as Problem);
    }
    return response;
  }

  close(): void {
    this.agent.destroy();
  }

  private async authorized(
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
    refresh: boolean,
  ): Promise<PspResponse> {
    const token = await this.accessToken(refresh);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return this.send(method, url, payload, {
      ...headers,
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    });
  }

  private accessToken(refresh: boolean): Promise<string> {
    if (refresh) this.token = undefined;
    if (this.token && this.token.expiresAt > this.now()) return Promise.resolve(this.token.value);
    // One token request at a time: callers arriving meanwhile share it.
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const { clientId, clientSecret, tokenUrl } = this.settings;
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const response = await this.send('POST', tokenUrl, 'grant_type=client_credentials', {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    if (response.status >= 500) throw unavailable(`token endpoint failed (${response.status})`);
    const token = response.body?.access_token;
    if (response.status !== 200 || typeof token !== 'string')
      throw unavailable('refused our client credentials');
    const seconds = Number(response.body.expires_in);
    const lifetime = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;
    // Renew a little early so that a token never expires on its way to the PSP.
    this.token = { value: token, expiresAt: this.now() + lifetime - Math.min(30_000, lifetime / 10) };
    return token;
  }

  private send(
    method: string,
    url: string,
    payload: string | undefined,
    headers: Record<string, string>,
  ): Promise<PspResponse> {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method, agent: this.agent, headers: { accept: 'application/json', ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY) req.destroy(new Error('PSP response too large'));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: kept as text, which no reader accepts as a success
            }
            resolve({ status: res.statusCode ?? 0, body });
          });
          res.on('error', () => reject(unavailable('broke off its answer')));
        },
      );
      req.setTimeout(this.settings.timeoutMs, () => req.destroy(new Error('timeout')));
      req.on('error', (error) =>
        reject(unavailable(error.message === 'timeout' ? 'did not answer in time' : 'could not be reached')),
      );
      req.end(payload);
    });
  }
}
