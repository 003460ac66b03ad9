import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import {
  authHeaders,
  client,
  createApiKey,
  enableProduction,
  PASSWORD,
  signupOwner,
  startWorld,
} from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const auditActions = async (workspaceId: string) =>
  (
    await world.db.query<{ action: string; metadata: Record<string, unknown> }>(
      'SELECT action, metadata FROM audit_events WHERE workspace_id = $1 ORDER BY id',
      [workspaceId],
    )
  ).rows;

describe('rule 1 and 3: key prefix and environment', () => {
  it('a sandbox key works on /sandbox and on the /test alias, answered alike', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner);
    const api = client(world.app, key.secret, owner.workspaceId);
    const sandbox = await api.get('/v1/sandbox/audit-events');
    const test = await api.get('/v1/test/audit-events');
    expect(sandbox.statusCode).toBe(200);
    expect(test.statusCode).toBe(200);
    expect(test.json()).toEqual(sandbox.json());
  });

  it('an unknown environment segment is 404', async () => {
    const owner = await signupOwner(world.app);
    const res = await client(world.app, owner.sessionToken, owner.workspaceId).get(
      '/v1/staging/audit-events',
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('a bearer token of no known shape is 401 invalid_credentials', async () => {
    const owner = await signupOwner(world.app);
    const res = await client(world.app, 'sk_live_123', owner.workspaceId).get('/v1/sandbox/audit-events');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('keys are shown once, stored hashed, listed with last4 only', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner, 'sandbox', { name: 'server' });
    const list = await client(world.app, owner.sessionToken, owner.workspaceId).get('/v1/sandbox/api-keys');
    expect(list.statusCode).toBe(200);
    const [listed] = list.json().data;
    expect(listed).toMatchObject({
      id: key.id,
      name: 'server',
      last4: key.secret.slice(-4),
      revoked_at: null,
    });
    expect(JSON.stringify(list.json())).not.toContain(key.secret);
    const stored = await world.db.query<{ key_hash: Uint8Array }>(
      'SELECT key_hash FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(Buffer.from(stored.rows[0]!.key_hash).toString('utf8')).not.toContain(key.secret);
  });

  it('last_used_at is set by the first call', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner);
    await client(world.app, key.secret, owner.workspaceId).get('/v1/sandbox/audit-events');
    const list = await client(world.app, owner.sessionToken, owner.workspaceId).get('/v1/sandbox/api-keys');
    expect(list.json().data[0].last_used_at).not.toBeNull();
  });
});

describe('rule 4: live keys need production enabled', () => {
  it('403 production_not_enabled until the owner turns production on', async () => {
    const owner = await signupOwner(world.app);
    const live = await createApiKey(world.app, owner, 'live');
    expect(live.secret).toMatch(/^lastro_live_sk_[0-9A-Za-z]{32,}$/);
    const api = client(world.app, live.secret, owner.workspaceId);
    const before = await api.get('/v1/live/audit-events');
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('production_not_enabled');
    await enableProduction(world.app, owner);
    expect((await api.get('/v1/live/audit-events')).statusCode).toBe(200);
  });
});

describe('rule 5: a live key on a sandbox path is revoked on sight', () => {
  it('revokes, persists, audits and emits api_key.revoked', async () => {
    const owner = await signupOwner(world.app);
    await enableProduction(world.app, owner);
    const live = await createApiKey(world.app, owner, 'live');
    const res = await client(world.app, live.secret, owner.workspaceId).get('/v1/sandbox/audit-events');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('api_key_revoked');

    const again = await client(world.app, live.secret, owner.workspaceId).get('/v1/live/audit-events');
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('api_key_revoked');

    const keys = await client(world.app, owner.sessionToken, owner.workspaceId).get('/v1/live/api-keys');
    expect(keys.json().data[0]).toMatchObject({ id: live.id, revoked_reason: 'live_key_used_on_sandbox' });
    expect(keys.json().data[0].revoked_at).not.toBeNull();
    expect((await auditActions(owner.workspaceId)).map((a) => a.action)).toContain('api_key.revoked');
    const events = await world.db.query<{ type: string; environment: string }>(
      'SELECT type, environment FROM events WHERE workspace_id = $1',
      [owner.workspaceId],
    );
    expect(events.rows).toContainEqual({ type: 'api_key.revoked', environment: 'live' });
  });
});

describe('rule 6: a sandbox key on a live path is refused and logged, not revoked', () => {
  it('403 environment_mismatch, an audit event, and the key still works on sandbox', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner);
    const api = client(world.app, key.secret, owner.workspaceId);
    const res = await api.get('/v1/live/audit-events');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('environment_mismatch');
    expect((await auditActions(owner.workspaceId)).map((a) => a.action)).toContain(
      'api_key.environment_mismatch',
    );
    expect((await api.get('/v1/sandbox/audit-events')).statusCode).toBe(200);
  });
});

describe('rule 2: X-Workspace-Id is always required', () => {
  it('400 workspace_id_required for a session without the header and for a malformed one', async () => {
    const owner = await signupOwner(world.app);
    const none = await world.app.inject({
      method: 'GET',
      url: '/v1/sandbox/workspace',
      headers: { authorization: `Bearer ${owner.sessionToken}` },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('workspace_id_required');
    const bad = await client(world.app, owner.sessionToken, 'not-a-uuid').get('/v1/sandbox/workspace');
    expect(bad.json().error).toBe('workspace_id_required');
  });
});

describe('dashboard sessions', () => {
  it('work on both environments, by bearer and by cookie', async () => {
    const owner = await signupOwner(world.app);
    for (const env of ['sandbox', 'live']) {
      const res = await client(world.app, owner.sessionToken, owner.workspaceId).get(`/v1/${env}/workspace`);
      expect(res.statusCode).toBe(200);
    }
    const byCookie = await world.app.inject({
      method: 'GET',
      url: '/v1/live/workspace',
      headers: { 'x-workspace-id': owner.workspaceId },
      cookies: { lastro_session: owner.sessionToken },
    });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().data.id).toBe(owner.workspaceId);
  });

  it('signup and login set an HttpOnly cookie', async () => {
    const owner = await signupOwner(world.app);
    const res = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: owner.email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'lastro_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.value).toBe(res.json().data.session_token);
  });

  it('a session of another workspace is 401 invalid_credentials', async () => {
    const a = await signupOwner(world.app);
    const b = await signupOwner(world.app);
    const res = await client(world.app, a.sessionToken, b.workspaceId).get('/v1/sandbox/workspace');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('expire after 12 hours', async () => {
    const owner = await signupOwner(world.app);
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    world.clock.advance(11 * 3600_000);
    expect((await api.get('/v1/sandbox/workspace')).statusCode).toBe(200);
    world.clock.advance(1 * 3600_000 + 1000);
    const res = await api.get('/v1/sandbox/workspace');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('logout ends the session', async () => {
    const owner = await signupOwner(world.app);
    const out = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { authorization: `Bearer ${owner.sessionToken}` },
    });
    expect(out.statusCode).toBe(200);
    const res = await client(world.app, owner.sessionToken, owner.workspaceId).get('/v1/sandbox/workspace');
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('login refuses a wrong password and an unknown e-mail alike', async () => {
    const owner = await signupOwner(world.app);
    for (const payload of [
      { email: owner.email, password: 'wrong password 123' },
      { email: 'nobody@example.com', password: PASSWORD },
    ]) {
      const res = await world.app.inject({ method: 'POST', url: '/v1/auth/login', payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_credentials', message: 'E-mail or password is wrong.' });
    }
  });

  it('signup refuses a short password and a taken e-mail', async () => {
    const owner = await signupOwner(world.app);
    const short = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: 'x@example.com', password: 'short', workspace_name: 'X' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('invalid_request');
    expect(short.json().details[0].field).toBe('body.password');
    const taken = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: owner.email.toUpperCase(), password: PASSWORD, workspace_name: 'X' },
    });
    expect(taken.statusCode).toBe(409);
  });
});

describe('two-factor authentication', () => {
  it('setup → enable → login requires otp_code', async () => {
    const owner = await signupOwner(world.app);
    const bearer = { authorization: `Bearer ${owner.sessionToken}` };
    const setup = await world.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: bearer });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json().data;
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);

    const wrong = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/2fa/enable',
      headers: bearer,
      payload: { otp_code: '000000' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('otp_invalid');
    const enable = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/2fa/enable',
      headers: bearer,
      payload: { otp_code: totpCode(secret, world.clock.now()) },
    });
    expect(enable.statusCode).toBe(200);

    const login = (otp_code?: string) =>
      world.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: owner.email, password: PASSWORD, otp_code },
      });
    const missing = await login();
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('otp_required');
    expect(missing.json().details).toEqual([
      { field: 'body.otp_code', issue: 'is required: two-factor authentication is on' },
    ]);
    const bad = await login(totpCode(secret, new Date(world.clock.now().getTime() - 10 * 60_000)));
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({
      error: 'otp_invalid',
      details: [{ field: 'body.otp_code', issue: 'is wrong or has expired' }],
    });
    // The code that turned 2FA on is spent: the next step's code logs in.
    world.clock.advance(30_000);
    const good = await login(totpCode(secret, world.clock.now()));
    expect(good.statusCode).toBe(200);
    expect(good.json().data.session_token).toMatch(/^lastro_sess_/);
  });

  it('2FA routes need a session, not an API key', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner);
    const none = await world.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('missing_credentials');
    const byKey = await world.app.inject({
      method: 'POST',
      url: '/v1/auth/2fa/setup',
      headers: authHeaders(key.secret, owner.workspaceId),
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe('forbidden');
  });
});

describe('rule 9: sub-account acting', () => {
  it('a workspace-level caller acts on its own child workspace only, through X-Subaccount-Id', async () => {
    const owner = await signupOwner(world.app);
    const stranger = await signupOwner(world.app);
    const child = await world.db.query<{ id: string }>(
      `INSERT INTO workspaces (id, parent_workspace_id, display_name) VALUES (gen_random_uuid(), $1, 'Child') RETURNING id`,
      [owner.workspaceId],
    );
    const childId = child.rows[0]!.id;
    const childParty = await world.db.query<{ id: string }>(
      `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'entity', 'Child') RETURNING id`,
      [childId],
    );
    await world.db.query('UPDATE workspaces SET default_party_id = $2 WHERE id = $1', [
      childId,
      childParty.rows[0]!.id,
    ]);

    const key = await createApiKey(world.app, owner);
    const api = client(world.app, key.secret, owner.workspaceId);
    const own = await api.get('/v1/sandbox/balances');
    const acting = await api.get('/v1/sandbox/balances', { 'x-subaccount-id': childId });
    expect(acting.statusCode).toBe(200);
    expect(own.json().data.every((b: { party_id: string }) => b.party_id === owner.defaultPartyId)).toBe(
      true,
    );
    expect(acting.json().data.every((b: { party_id: string }) => b.party_id === childParty.rows[0]!.id)).toBe(
      true,
    );

    const strangerKey = await createApiKey(world.app, stranger);
    const foreign = await client(world.app, strangerKey.secret, stranger.workspaceId).get(
      '/v1/sandbox/balances',
      {
        'x-subaccount-id': childId,
      },
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('not_found');

    const notAccepted = await api.get('/v1/sandbox/audit-events', { 'x-subaccount-id': childId });
    expect(notAccepted.statusCode).toBe(400);
    expect(notAccepted.json().error).toBe('invalid_request');

    const partyKey = await createApiKey(world.app, owner, 'sandbox', { party_id: owner.defaultPartyId });
    const scoped = await client(world.app, partyKey.secret, owner.workspaceId).get('/v1/sandbox/balances', {
      'x-subaccount-id': childId,
    });
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().error).toBe('forbidden');
  });
});
