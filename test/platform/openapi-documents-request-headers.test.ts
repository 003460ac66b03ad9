/**
 * No route of the OpenAPI document declared the request headers the contract gives it:
 * `Idempotency-Key` (API.md: accepted on every POST/PUT/PATCH; a retry of a payout with it never pays
 * twice) and `X-Subaccount-Id` (API.md: accepted on balances, statement, pix… routes). The route
 * schemas (e.g. src/modules/pix/routes/payouts-create.ts:19-21, src/modules/balances/routes/balances.ts)
 * have no `headers` schema, so /openapi.json is silent on the one header that makes a payout safe to
 * retry, and on the Idempotency-Replayed response header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../support/world.ts';

let world: World;
let document: {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
};
beforeAll(async () => {
  world = await startWorld();
  document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => world.close());

const headersOf = (path: string, method: string) =>
  (document.paths[path]?.[method]?.parameters ?? [])
    .filter((p) => p.in === 'header')
    .map((p) => p.name.toLowerCase());

describe('OpenAPI request headers', () => {
  it('POST /pix/payouts documents Idempotency-Key', () => {
    expect(headersOf('/v1/{env}/pix/payouts', 'post')).toContain('idempotency-key');
  });

  it('every POST/PUT/PATCH under /v1/{env} documents Idempotency-Key', () => {
    const missing = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/{env}/'))
      .flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((method) => ['post', 'put', 'patch'].includes(method))
          .filter((method) => !headersOf(path, method).includes('idempotency-key'))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(missing).toEqual([]);
  });

  it('GET /balances documents X-Subaccount-Id', () => {
    expect(headersOf('/v1/{env}/balances', 'get')).toContain('x-subaccount-id');
  });
});
