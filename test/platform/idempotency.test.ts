import { afterAll, describe, expect, it } from 'vitest';
import { sweepIdempotencyKeys } from '../../src/platform/idempotency.ts';
import { onRealPostgres } from '../support/database.ts';
import { client, signupOwner, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const owner = await signupOwner(world.app);

const keyCount = async () =>
  Number(
    (
      await world.db.query<{ n: bigint }>('SELECT count(*) AS n FROM api_keys WHERE workspace_id = $1', [
        owner.workspaceId,
      ])
    ).rows[0]!.n,
  );

describe('Idempotency-Key', () => {
  it('replays the stored response with Idempotency-Replayed: true and creates nothing new', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const before = await keyCount();
    const first = await api.post(
      '/v1/sandbox/api-keys',
      { name: 'ci' },
      { 'idempotency-key': 'create-ci-key' },
    );
    const second = await api.post(
      '/v1/sandbox/api-keys',
      { name: 'ci' },
      { 'idempotency-key': 'create-ci-key' },
    );
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotency-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await keyCount()).toBe(before + 1);
    const stored = await world.db.query<{ response: unknown }>(
      'SELECT response FROM idempotency_keys WHERE key = $1',
      ['create-ci-key'],
    );
    expect(JSON.stringify(stored.rows[0]!.response)).not.toContain(first.json().data.secret);
  });

  it('the same key with a different body is 409 idempotency_key_reuse and changes nothing', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    await api.post('/v1/sandbox/api-keys', { name: 'one' }, { 'idempotency-key': 'reuse-me' });
    const before = await keyCount();
    const res = await api.post('/v1/sandbox/api-keys', { name: 'two' }, { 'idempotency-key': 'reuse-me' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('idempotency_key_reuse');
    expect(await keyCount()).toBe(before);
  });

  it('keys are scoped by environment and workspace', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const sandbox = await api.post('/v1/sandbox/api-keys', { name: 'k' }, { 'idempotency-key': 'scoped' });
    const live = await api.post('/v1/live/api-keys', { name: 'k' }, { 'idempotency-key': 'scoped' });
    expect(live.headers['idempotency-replayed']).toBeUndefined();
    expect(live.json().data.id).not.toBe(sandbox.json().data.id);
    const other = await signupOwner(world.app);
    const theirs = await client(world.app, other.sessionToken, other.workspaceId).post(
      '/v1/sandbox/api-keys',
      { name: 'k' },
      { 'idempotency-key': 'scoped' },
    );
    expect(theirs.headers['idempotency-replayed']).toBeUndefined();
    expect(theirs.json().data.workspace_id).toBe(other.workspaceId);
  });

  it('the /test alias shares keys with /sandbox', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const a = await api.post('/v1/sandbox/api-keys', { name: 'alias' }, { 'idempotency-key': 'alias-key' });
    const b = await api.post('/v1/test/api-keys', { name: 'alias' }, { 'idempotency-key': 'alias-key' });
    expect(b.headers['idempotency-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
  });

  it('a failed write stores no record: the retry runs', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const bad = await api.post(
      '/v1/sandbox/api-keys',
      { name: 'p', party_id: '01890000-0000-7000-8000-000000000000' },
      { 'idempotency-key': 'fails-first' },
    );
    expect(bad.statusCode).toBe(404);
    const stored = await world.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', ['fails-first']);
    expect(stored.rows).toHaveLength(0);
  });

  it('a malformed key is 400', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const res = await api.post('/v1/sandbox/api-keys', { name: 'x' }, { 'idempotency-key': 'x'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('the sweep removes records older than 24 h except money-moving ones', async () => {
    await world.db.query(
      `INSERT INTO idempotency_keys (workspace_id, environment, key, request_hash, method, path, money_moving, created_at)
       VALUES ($1, 'sandbox', 'old-plain', '\\x00', 'POST', '/x', false, now() - interval '25 hours'),
              ($1, 'sandbox', 'old-money', '\\x00', 'POST', '/x', true, now() - interval '400 days'),
              ($1, 'sandbox', 'fresh', '\\x00', 'POST', '/x', false, now())`,
      [owner.workspaceId],
    );
    await sweepIdempotencyKeys(world.deps);
    const left = await world.db.query<{ key: string }>(
      `SELECT key FROM idempotency_keys WHERE key IN ('old-plain', 'old-money', 'fresh') ORDER BY key`,
    );
    expect(left.rows.map((r) => r.key)).toEqual(['fresh', 'old-money']);
  });
});

describe.skipIf(!onRealPostgres())('concurrent duplicates (PostgreSQL)', () => {
  it('20 concurrent requests with one key execute once; the others replay', async () => {
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const before = await keyCount();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/v1/sandbox/api-keys', { name: 'race' }, { 'idempotency-key': 'race-key' }),
      ),
    );
    const ids = new Set(results.filter((r) => r.statusCode === 200).map((r) => r.json().data.id));
    expect(ids.size).toBe(1);
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    expect(results.filter((r) => r.headers['idempotency-replayed'] === 'true').length).toBeGreaterThan(0);
    expect(await keyCount()).toBe(before + 1);
  });
});
