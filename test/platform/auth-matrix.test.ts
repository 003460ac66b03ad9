import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/platform/context.ts';
import {
  authHeaders,
  createApiKey,
  enableProduction,
  type Owner,
  signupOwner,
  startWorld,
} from '../support/world.ts';

/**
 * The shared authentication suite: every authenticated /v1/{env} route, discovered from the
 * app's route catalog, is called with each kind of bad credential and must refuse it the same way.
 */
const world = await startWorld();
const routes = world.app.routeCatalog.filter(
  (r) => r.url.startsWith('/v1/:env/') && r.config.auth !== 'none',
);

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';
const pathFor = (route: RouteEntry, env: string) =>
  route.url.replace(':env', env).replace(/:[a-z_]+/g, UNKNOWN_ID);

let owner: Owner;
let other: Owner;
let sandboxKey: string;
let partyKey: string;
let otherKey: string;
let revokedKey: string;

function call(route: RouteEntry, env: string, headers: Record<string, string>) {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return world.app.inject({
    method: route.method as 'GET',
    url: pathFor(route, env),
    headers,
    ...(withBody ? { payload: {} } : {}),
  });
}

beforeAll(async () => {
  owner = await signupOwner(world.app, 'Owner A');
  other = await signupOwner(world.app, 'Owner B');
  await enableProduction(world.app, owner);
  sandboxKey = (await createApiKey(world.app, owner)).secret;
  otherKey = (await createApiKey(world.app, other)).secret;
  const party = await world.db.query<{ id: string }>(
    `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'person', 'Customer') RETURNING id`,
    [owner.workspaceId],
  );
  partyKey = (await createApiKey(world.app, owner, 'sandbox', { party_id: party.rows[0]!.id })).secret;
  const revoked = await createApiKey(world.app, owner);
  await world.app.inject({
    method: 'DELETE',
    url: `/v1/sandbox/api-keys/${revoked.id}`,
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
  });
  revokedKey = revoked.secret;
});
afterAll(() => world.close());

describe.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', (_name, route) => {
  it('401 missing_credentials without Authorization', async () => {
    const res = await call(route, 'sandbox', { 'x-workspace-id': owner.workspaceId });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('missing_credentials');
  });

  it('400 workspace_id_required without X-Workspace-Id', async () => {
    const res = await call(route, 'sandbox', { authorization: `Bearer ${sandboxKey}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('workspace_id_required');
  });

  it('401 invalid_credentials for an unknown key', async () => {
    const res = await call(
      route,
      'sandbox',
      authHeaders(`lastro_test_sk_${'x'.repeat(40)}`, owner.workspaceId),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it("401 invalid_credentials for another workspace's key", async () => {
    const res = await call(route, 'sandbox', authHeaders(otherKey, owner.workspaceId));
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('401 api_key_revoked for a revoked key', async () => {
    const res = await call(route, 'sandbox', authHeaders(revokedKey, owner.workspaceId));
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('api_key_revoked');
  });

  it(
    route.config.sandboxOnly
      ? '404 on the live path: a sandbox helper does not exist there'
      : '403 environment_mismatch for a sandbox key on the live path',
    async () => {
      const res = await call(route, 'live', authHeaders(sandboxKey, owner.workspaceId));
      if (route.config.sandboxOnly) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('not_found');
        return;
      }
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('environment_mismatch');
    },
  );

  it('401 api_key_revoked for a live key on the sandbox path, and the key stays revoked', async () => {
    const live = await createApiKey(world.app, owner, 'live');
    const res = await call(route, 'sandbox', authHeaders(live.secret, owner.workspaceId));
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('api_key_revoked');
    const after = await world.app.inject({
      method: 'GET',
      url: '/v1/live/workspace',
      headers: authHeaders(live.secret, owner.workspaceId),
    });
    expect(after.json().error).toBe('api_key_revoked');
  });

  it('refuses a sub-account header it does not accept, or an unknown sub-account', async () => {
    const credential = route.config.auth === 'session' ? owner.sessionToken : sandboxKey;
    const res = await call(
      route,
      'sandbox',
      authHeaders(credential, owner.workspaceId, { 'x-subaccount-id': UNKNOWN_ID }),
    );
    if (route.config.subaccount) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    } else {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  if (route.config.auth === 'session') {
    it('403 forbidden for an API key on a session-only route', async () => {
      const res = await call(route, 'sandbox', authHeaders(sandboxKey, owner.workspaceId));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    });
  }

  if (route.config.auth === 'workspace' || route.config.auth === 'session') {
    it('403 forbidden for a party-scoped key', async () => {
      const res = await call(route, 'sandbox', authHeaders(partyKey, owner.workspaceId));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    });
  }

  it('passes authentication with a valid credential (any refusal is not an auth error)', async () => {
    const credential = route.config.auth === 'session' ? owner.sessionToken : sandboxKey;
    const res = await call(route, 'test', authHeaders(credential, owner.workspaceId));
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).not.toBe(403);
    expect(res.statusCode).toBeLessThan(500);
  });
});

it('covers every authenticated route, the money routes among them', () => {
  const names = routes.map((r) => `${r.method} ${r.url}`);
  for (const name of [
    'POST /v1/:env/pix/payouts',
    'GET /v1/:env/balances',
    'GET /v1/:env/webhooks/deliveries',
  ]) {
    expect(names).toContain(name);
  }
  expect(names).toHaveLength(world.app.routeCatalog.filter((r) => r.url.startsWith('/v1/:env/')).length);
});
