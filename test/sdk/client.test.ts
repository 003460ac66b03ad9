import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  InvalidRequestError,
  Lastro,
  LastroConnectionError,
  retryDelayMs,
  ServerError,
  UnprocessableError,
} from '../../packages/sdk/src/index.ts';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { CPF, type Workspace } from '../support/world.ts';
import { type ProxyStep, ScriptedProxy } from './proxy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Fast retries: the waits are the library's, the test only needs them short.
const quick = { baseDelayMs: 10, maxDelayMs: 50 };

let server: ListeningWorld;
let ws: Workspace;
const proxies: ScriptedProxy[] = [];

beforeAll(async () => {
  server = await startListeningWorld();
  ws = await server.workspace('SDK Pagamentos', { settlementKey: true, fund: '100000' });
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await server?.close();
});

/** A client on `ws`'s sandbox key that records every request it sends. */
function recorded(options: Partial<ConstructorParameters<typeof Lastro>[0]> = {}) {
  const sent: Request[] = [];
  const lastro = new Lastro({
    apiKey: ws.apiKey,
    workspaceId: ws.owner.workspaceId,
    baseUrl: server.baseUrl,
    retry: quick,
    fetch: (request) => {
      sent.push(request.clone());
      return fetch(request);
    },
    ...options,
  });
  return { lastro, sent };
}

async function proxied(script: ProxyStep[]) {
  const proxy = await ScriptedProxy.start(server.baseUrl, script);
  proxies.push(proxy);
  const lastro = new Lastro({
    apiKey: ws.apiKey,
    workspaceId: ws.owner.workspaceId,
    baseUrl: proxy.url,
    retry: quick,
  });
  return { proxy, lastro };
}

const payouts = async () =>
  (await ws.api.get('/v1/sandbox/payments?kind=pix_cash_out&limit=100')).json().data as { id: string }[];

describe('headers set once', () => {
  it('sends the key, the workspace and the environment on every call, and an Idempotency-Key on writes only', async () => {
    const { lastro, sent } = recorded();
    const balances = await lastro.get('/v1/{env}/balances', { params: { query: { currency: 'BRL' } } });
    expect(balances.find((row) => row.kind === 'available')?.balance_minor).toBeDefined();
    const charge = await lastro.post('/v1/{env}/pix/charges', {
      body: { amount_minor: '1500', currency: 'BRL' },
    });
    expect(charge).toMatchObject({ kind: 'pix_cash_in', status: 'created', amount_minor: '1500' });

    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'GET /v1/sandbox/balances',
      'POST /v1/sandbox/pix/charges',
    ]);
    for (const request of sent) {
      expect(request.headers.get('authorization')).toBe(`Bearer ${ws.apiKey}`);
      expect(request.headers.get('x-workspace-id')).toBe(ws.owner.workspaceId);
    }
    expect(sent[0]!.headers.get('idempotency-key')).toBeNull();
    expect(sent[1]!.headers.get('idempotency-key')).toMatch(UUID);
  });

  it('takes an Idempotency-Key of the call instead, and the server replays the same write for it', async () => {
    const { lastro, sent } = recorded();
    const body = { amount_minor: '2100', currency: 'BRL' as const };
    const first = await lastro.post('/v1/{env}/pix/charges', {
      body,
      params: { header: { 'idempotency-key': 'order-42' } },
    });
    const again = await lastro.post('/v1/{env}/pix/charges', {
      body,
      params: { header: { 'idempotency-key': 'order-42' } },
    });
    expect(again.id).toBe(first.id);
    expect(sent.map((request) => request.headers.get('idempotency-key'))).toEqual(['order-42', 'order-42']);
  });

  it('acts on a sub-account where the route takes X-Subaccount-Id, and leaves it off elsewhere', async () => {
    const { lastro } = recorded();
    const child = await lastro.post('/v1/{env}/subaccounts', { body: { display_name: 'Filial Norte' } });
    const { lastro: onChild, sent } = recorded({ subaccountId: child.id });
    await onChild.post('/v1/{env}/simulate/pix/cash-in', { body: { amount_minor: '700' } });
    const childRows = await onChild.get('/v1/{env}/balances', { params: { query: { currency: 'BRL' } } });
    expect(childRows.find((row) => row.kind === 'available')?.balance_minor).toBe('700');
    // The webhook routes refuse the header (400); the client does not send it there.
    await onChild.get('/v1/{env}/webhooks/endpoints');
    expect(sent.map((request) => request.headers.get('x-subaccount-id'))).toEqual([child.id, child.id, null]);
    const parentRows = await lastro.get('/v1/{env}/balances', { params: { query: { currency: 'BRL' } } });
    expect(parentRows.some((row) => row.party_id === childRows[0]!.party_id)).toBe(false);
  });
});

describe('retries', () => {
  it('retries a payout whose answer was lost (503, Retry-After) with the same key: one payout, paid once', async () => {
    const before = await ws.balances();
    const countBefore = (await payouts()).length;
    // The first attempt reaches the server, which pays; the proxy drops the answer and says 503.
    const { proxy, lastro } = await proxied([{ status: 503, retryAfter: '0', forwardFirst: true }]);
    const payout = await lastro.post('/v1/{env}/pix/payouts', {
      body: { amount_minor: '2500', pix_key: CPF },
    });

    expect(payout).toMatchObject({ kind: 'pix_cash_out', amount_minor: '2500' });
    expect(proxy.seen).toHaveLength(2);
    const keys = proxy.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(proxy.seen[1]!.body).toBe(proxy.seen[0]!.body);
    expect((await payouts()).length).toBe(countBefore + 1);
    const after = await ws.balances();
    // 2500 and the 100 fee left available once.
    expect(BigInt(before.available!) - BigInt(after.available!)).toBe(2600n);
  });

  it('retries 429 and network failures, then answers', async () => {
    const { proxy, lastro } = await proxied([{ status: 429, retryAfter: '0' }]);
    expect(await lastro.get('/v1/{env}/webhooks/endpoints')).toEqual([]);
    expect(proxy.seen).toHaveLength(2);

    let failures = 0;
    const flaky = new Lastro({
      apiKey: ws.apiKey,
      workspaceId: ws.owner.workspaceId,
      baseUrl: server.baseUrl,
      retry: quick,
      fetch: (request) => (failures++ < 2 ? Promise.reject(new TypeError('fetch failed')) : fetch(request)),
    });
    expect(await flaky.get('/v1/{env}/webhooks/endpoints')).toEqual([]);
    expect(failures).toBe(3);
  });

  it('gives up after maxAttempts with the last answer as a typed error', async () => {
    const { proxy, lastro } = await proxied([
      { status: 503, retryAfter: '0' },
      { status: 503, retryAfter: '0' },
      { status: 503, retryAfter: '0' },
    ]);
    const error = await lastro.get('/v1/{env}/webhooks/endpoints').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'provider_unavailable', status: 503, retryAfter: 0 });
    expect(proxy.seen).toHaveLength(DEFAULT_RETRY.maxAttempts);

    const dead = new Lastro({
      apiKey: ws.apiKey,
      workspaceId: ws.owner.workspaceId,
      baseUrl: 'http://127.0.0.1:9',
      retry: { ...quick, maxAttempts: 2 },
    });
    await expect(dead.get('/v1/{env}/webhooks/endpoints')).rejects.toBeInstanceOf(LastroConnectionError);
  });

  it('never retries a 422: one request, a typed error with code, status and request id', async () => {
    const { lastro, sent } = recorded();
    const error = await lastro
      .post('/v1/{env}/pix/payouts', { body: { amount_minor: '999999999', pix_key: CPF } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error).toMatchObject({ code: 'insufficient_balance', status: 422, name: 'UnprocessableError' });
    expect((error as UnprocessableError).requestId).toMatch(UUID);
    expect(sent).toHaveLength(1);
  });

  it('carries the details of a validation error', async () => {
    const { lastro, sent } = recorded();
    const error = await lastro
      .post('/v1/{env}/pix/payouts', { body: { amount_minor: 'ten', pix_key: CPF } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).code).toMatch(/^invalid_(request|amount)$/);
    expect((error as InvalidRequestError).details.length).toBeGreaterThan(0);
    expect(sent).toHaveLength(1);
  });

  it('waits with full jitter under the exponential ceiling, or what Retry-After says, never over the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        (attempt, random, base, cap) => {
          const options = { maxAttempts: 3, baseDelayMs: base, maxDelayMs: cap };
          const wait = retryDelayMs(attempt, null, options, () => random);
          expect(wait).toBeGreaterThanOrEqual(0);
          expect(wait).toBeLessThan(Math.max(1, Math.min(cap, base * 2 ** (attempt - 1))));
        },
      ),
    );
    const options = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };
    expect(retryDelayMs(1, '2', options)).toBe(2000);
    expect(retryDelayMs(1, '3600', options)).toBe(30_000);
    expect(retryDelayMs(1, new Date(5_000).toUTCString(), options, Math.random, 2_000)).toBe(3000);
  });
});

describe('lists', () => {
  it('follows the cursors: every payment once, newest first, page by page', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push(
        (
          await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: String(100 + i), currency: 'BRL' })
        ).json().data.id,
      );
    const { lastro, sent } = recorded();
    const seen: string[] = [];
    for await (const payment of lastro.list('/v1/{env}/payments', {
      params: { query: { kind: 'pix_cash_in', limit: 2 } },
    }))
      seen.push(payment.id);
    const all = (await ws.api.get('/v1/sandbox/payments?kind=pix_cash_in&limit=100'))
      .json()
      .data.map((p: { id: string }) => p.id);
    expect(seen).toEqual(all);
    expect(seen.slice(0, 5)).toEqual(made.reverse());
    expect(sent).toHaveLength(Math.floor(all.length / 2) + 1);
    expect(new URL(sent[1]!.url).searchParams.get('cursor')).toBe(seen[1]);
  });

  it('stops when the loop does', async () => {
    const { lastro, sent } = recorded();
    for await (const payment of lastro.list('/v1/{env}/payments', { params: { query: { limit: 1 } } })) {
      expect(payment.id).toMatch(ANY_UUID);
      break;
    }
    expect(sent).toHaveLength(1);
  });
});
