import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const { owner, apiKey: key } = await world.workspace();

const routes = () => world.app.routeCatalog.filter((r) => r.url.startsWith('/v1/'));

const credential = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.string(),
    fc.constant(`Bearer ${key}`),
    fc.constant(`Bearer ${owner.sessionToken}`),
    fc.string().map((s) => `Bearer lastro_test_sk_${s}`),
    fc.string().map((s) => `Bearer lastro_live_sk_${s}`),
    fc.string().map((s) => `Bearer lastro_sess_${s}`),
    fc.string().map((s) => `Basic ${s}`),
  );
const workspaceHeader = () =>
  fc.oneof(fc.constant(undefined), fc.constant(owner.workspaceId), fc.uuid(), fc.string());
const pathValue = () => fc.oneof(fc.uuid(), fc.string({ minLength: 1 }).map(encodeURIComponent));
const env = () => fc.constantFrom('sandbox', 'live', 'test', 'prod', '');

describe('fuzzing: no input produces a 500', () => {
  it('auth headers, environments and path values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        credential(),
        workspaceHeader(),
        fc.option(fc.oneof(fc.uuid(), fc.string())),
        env(),
        pathValue(),
        async (pick, authorization, workspace, subaccount, envName, id) => {
          const all = routes();
          const route = all[pick % all.length]!;
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers.authorization = authorization;
          if (workspace !== undefined) headers['x-workspace-id'] = workspace;
          if (subaccount !== null) headers['x-subaccount-id'] = subaccount;
          const url = route.url.replace(':env', envName || 'sandbox').replace(/:[a-z_]+/g, id);
          const res = await world.app.inject({ method: route.method as 'GET', url, headers });
          expect(res.statusCode, `${route.method} ${url} → ${res.body}`).toBeLessThan(500);
          expect(res.json()).toSatisfy((body: object) => 'data' in body || 'error' in body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('request bodies on every write route', async () => {
    const writes = routes().filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), fc.string()),
        fc.option(fc.string({ minLength: 1, maxLength: 40 })),
        async (pick, body, idempotencyKey) => {
          const route = writes[pick % writes.length]!;
          const credentialFor =
            route.config.auth === 'session' || route.config.auth === 'user' ? owner.sessionToken : key;
          const headers: Record<string, string> = {
            authorization: `Bearer ${credentialFor}`,
            'x-workspace-id': owner.workspaceId,
            'content-type': 'application/json',
          };
          if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
          const url = route.url
            .replace(':env', 'sandbox')
            .replace(/:[a-z_]+/g, '01890000-0000-7000-8000-000000000000');
          const payload = typeof body === 'string' && body.length % 2 === 0 ? body : JSON.stringify(body);
          const res = await world.app.inject({ method: route.method as 'POST', url, headers, payload });
          expect(res.statusCode, `${route.method} ${url} ${payload} → ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});
