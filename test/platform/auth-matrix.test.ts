import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inActingGroup } from '../../src/platform/auth/acting.ts';
import type { RecordKind, RouteEntry } from '../../src/platform/context.ts';
import { startTestApp } from '../support/app.ts';
import {
  authHeaders,
  client,
  createApiKey,
  enableProduction,
  type Owner,
  signupOwner,
} from '../support/fixtures.ts';
import { sampleOf } from '../support/samples.ts';

/**
 * The shared authentication suite: every authenticated /v1/{env} route, discovered from the
 * app's route catalog, is called with each kind of bad credential and must refuse it the same way.
 * Beside the credential columns it checks, for every route:
 * - party scope: a party-scoped key naming another party (party_id in body or query) is 403, and on
 *   routes whose :id names a record (config.record) another party's record is 404;
 * - tenancy: another workspace's record (config.record) is 404;
 * - acting: X-Subaccount-Id is taken exactly on the spec's acting groups (src/platform/auth/acting.ts),
 *   works there for the caller's own child, is 403 for a party-scoped key and 404 for another's child,
 *   and is 400 everywhere else.
 */
const ctx = await startTestApp();
const routes = ctx.app.routeCatalog.filter((r) => r.url.startsWith('/v1/:env/') && r.config.auth !== 'none');

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';
const pathFor = (route: RouteEntry, env: string, id = UNKNOWN_ID) =>
  route.url
    .replace(':env', env)
    .replace(':id', id)
    .replace(/:[a-z_]+/g, UNKNOWN_ID);

let owner: Owner;
let other: Owner;
let sandboxKey: string;
let partyKey: string;
let otherKey: string;
let revokedKey: string;
let ownChild: string;
let othersChild: string;
/** Records of the owner's workspace, none of them the party-scoped key's party's. */
const ownRecords = {} as Record<RecordKind, string>;
/** Records of the other workspace. */
const otherRecords = {} as Record<RecordKind, string>;

const withBody = (route: RouteEntry) => ['POST', 'PUT', 'PATCH'].includes(route.method);

function call(
  route: RouteEntry,
  env: string,
  headers: Record<string, string>,
  options: { id?: string; body?: unknown; query?: Record<string, string> } = {},
) {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  return ctx.app.inject({
    method: route.method as 'GET',
    url: pathFor(route, env, options.id) + query,
    headers,
    ...(withBody(route) ? { payload: (options.body ?? {}) as object } : {}),
  });
}

/** A body that passes the route's validation, so a check after it (record lookup) is reached. */
const validBody = (route: RouteEntry) => sampleOf(route.schema.body as never) as Record<string, unknown>;

const credentialFor = (route: RouteEntry) =>
  route.config.auth === 'session' ? owner.sessionToken : sandboxKey;

/** One record of each kind in a workspace, made through the API by a workspace-level key. */
async function makeRecords(of: Owner, key: string, into: Record<RecordKind, string>): Promise<void> {
  const api = client(ctx.app, key, of.workspaceId);
  const ok = async (res: Awaited<ReturnType<typeof api.get>>) => {
    if (res.statusCode !== 200) throw new Error(`fixture: ${res.statusCode} ${res.body}`);
    return res.json().data.id as string;
  };
  into.payment = await ok(await api.post('/v1/sandbox/pix/charges', { amount_minor: '1000' }));
  into.customer = await ok(await api.post('/v1/sandbox/customers', { display_name: 'Record' }));
  into.kyc_case = await ok(await api.post('/v1/sandbox/kyc', { party_id: into.customer }));
  into.subaccount = await ok(await api.post('/v1/sandbox/subaccounts', { display_name: 'Child' }));
  into.payment_link = await ok(
    await api.post('/v1/sandbox/payment-links', { title: 'Record', amount_minor: '1000' }),
  );
  into.wallet = await ok(await api.post('/v1/sandbox/wallets', { network: 'polygon' }));
  into.subscription = await ok(
    await api.post('/v1/sandbox/subscriptions', {
      debtor: { name: 'Record', document: '52998224725' },
      amount_minor: '1000',
      frequency: 'monthly',
      start_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    }),
  );
  into.unassigned_pix = await ok(
    await api.post('/v1/sandbox/simulate/pix/unassigned', { amount_minor: '1000' }),
  );
  const disputed = await ok(await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '1000' }));
  into.dispute = await ok(await api.post(`/v1/sandbox/simulate/payments/${disputed}/dispute`, {}));
  into.quote = await ok(
    await api.post('/v1/sandbox/rfq/quote', {
      base_currency: 'BRL',
      quote_currency: 'USDT',
      base_amount_minor: '1000',
    }),
  );
}

beforeAll(async () => {
  owner = await signupOwner(ctx.app, 'Owner A');
  other = await signupOwner(ctx.app, 'Owner B');
  await enableProduction(ctx.app, owner);
  sandboxKey = (await createApiKey(ctx.app, owner)).secret;
  otherKey = (await createApiKey(ctx.app, other)).secret;
  const party = await ctx.db.query<{ id: string }>(
    `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'person', 'Customer') RETURNING id`,
    [owner.workspaceId],
  );
  partyKey = (await createApiKey(ctx.app, owner, 'sandbox', { party_id: party.rows[0]!.id })).secret;
  const revoked = await createApiKey(ctx.app, owner);
  await ctx.app.inject({
    method: 'DELETE',
    url: `/v1/sandbox/api-keys/${revoked.id}`,
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
  });
  revokedKey = revoked.secret;
  await makeRecords(owner, sandboxKey, ownRecords);
  await makeRecords(other, otherKey, otherRecords);
  ownChild = ownRecords.subaccount;
  othersChild = otherRecords.subaccount;
});
afterAll(() => ctx.close());

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
    const live = await createApiKey(ctx.app, owner, 'live');
    const res = await call(route, 'sandbox', authHeaders(live.secret, owner.workspaceId));
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('api_key_revoked');
    const after = await ctx.app.inject({
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

  // Party scope: for workspace and session routes it is the 403 above; for the others, these.
  if (route.config.auth === 'any') {
    it('party scope: 403 forbidden when a party-scoped key names another party', async () => {
      const other = { party_id: owner.defaultPartyId };
      const res = withBody(route)
        ? await call(route, 'sandbox', authHeaders(partyKey, owner.workspaceId), {
            body: { ...validBody(route), ...other },
          })
        : await call(route, 'sandbox', authHeaders(partyKey, owner.workspaceId), { query: other });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    });
  }

  if (route.config.auth === 'any' && /:(?!env)/.test(route.url)) {
    it('party scope: declares the record its :id names (config.record)', () => {
      expect(route.config.record).toBeDefined();
    });
  }

  const kind = route.config.record;
  if (kind && route.config.auth === 'any') {
    it(`party scope: 404 not_found for another party's ${kind}`, async () => {
      const res = await call(route, 'sandbox', authHeaders(partyKey, owner.workspaceId), {
        id: ownRecords[kind],
        body: validBody(route),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    });
  }

  if (route.config.record) {
    it(`tenancy: 404 not_found for another workspace's ${route.config.record}`, async () => {
      const res = await call(route, 'sandbox', authHeaders(credentialFor(route), owner.workspaceId), {
        id: otherRecords[route.config.record!],
        body: validBody(route),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    });
  }

  describe('acting on a sub-account', () => {
    it(`${inActingGroup(route.url) ? 'takes' : 'refuses'} X-Subaccount-Id, as its route group says`, () => {
      expect(Boolean(route.config.subaccount)).toBe(inActingGroup(route.url));
    });

    const acting = (credential: string, child: string) =>
      call(route, 'sandbox', authHeaders(credential, owner.workspaceId, { 'x-subaccount-id': child }), {
        body: validBody(route),
      });

    if (route.config.subaccount) {
      it("accepts the caller's own sub-account", async () => {
        const res = await acting(credentialFor(route), ownChild);
        // A rule of the route itself may still refuse (settlement_key_required…), but not the caller kind.
        expect(res.statusCode).not.toBe(401);
        if (res.statusCode === 403) expect(res.json().error).not.toBe('forbidden');
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode === 404) expect(res.json().message).not.toBe('Sub-account not found');
        if (res.statusCode === 400) expect(JSON.stringify(res.json())).not.toContain('x-subaccount-id');
      });

      it("404 not_found for another workspace's sub-account", async () => {
        const res = await acting(credentialFor(route), othersChild);
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Sub-account not found');
      });

      it('403 forbidden for a party-scoped key', async () => {
        const res = await acting(partyKey, ownChild);
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe('forbidden');
      });
    } else {
      it("400 invalid_request even for the caller's own sub-account", async () => {
        const res = await acting(credentialFor(route), ownChild);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('invalid_request');
        expect(JSON.stringify(res.json())).toContain('x-subaccount-id');
      });
    }
  });

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
    'POST /v1/:env/customers',
    'PATCH /v1/:env/customers/:id',
    'POST /v1/:env/kyc/:id/rfi/:rfi_id/answer',
    'POST /v1/:env/subaccounts',
  ]) {
    expect(names).toContain(name);
  }
  expect(names).toHaveLength(ctx.app.routeCatalog.filter((r) => r.url.startsWith('/v1/:env/')).length);
});
