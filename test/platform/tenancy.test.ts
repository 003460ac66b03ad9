import { afterAll, describe, expect, it } from 'vitest';
import { client, createApiKey, signupOwner, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const a = await signupOwner(world.app, 'Tenant A');
const b = await signupOwner(world.app, 'Tenant B');

describe('tenant isolation', () => {
  it("a workspace cannot revoke another workspace's key: 404, and the key keeps working", async () => {
    const theirs = await createApiKey(world.app, b);
    const res = await client(world.app, a.sessionToken, a.workspaceId).delete(
      `/v1/sandbox/api-keys/${theirs.id}`,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    expect(
      (await client(world.app, theirs.secret, b.workspaceId).get('/v1/sandbox/audit-events')).statusCode,
    ).toBe(200);
  });

  it('a key of one environment cannot be revoked through the other environment path', async () => {
    const key = await createApiKey(world.app, a);
    const res = await client(world.app, a.sessionToken, a.workspaceId).delete(`/v1/live/api-keys/${key.id}`);
    expect(res.statusCode).toBe(404);
  });

  it('key lists and audit logs show only the own workspace', async () => {
    const theirs = await createApiKey(world.app, b, 'sandbox', { name: 'b-only' });
    const own = await createApiKey(world.app, a, 'sandbox', { name: 'a-only' });
    const keys = await client(world.app, a.sessionToken, a.workspaceId).get('/v1/sandbox/api-keys');
    expect(keys.json().data.every((k: { workspace_id: string }) => k.workspace_id === a.workspaceId)).toBe(
      true,
    );
    const keyIds = keys.json().data.map((k: { id: string }) => k.id);
    expect(keyIds).toContain(own.id);
    expect(keyIds).not.toContain(theirs.id);
    const audit = await client(world.app, a.sessionToken, a.workspaceId).get('/v1/sandbox/audit-events');
    const targets = audit.json().data.map((e: { target_id: string | null }) => e.target_id);
    expect(targets).toContain(own.id);
    expect(targets).not.toContain(theirs.id);
    expect(audit.json().data.every((e: { workspace_id: string }) => e.workspace_id === a.workspaceId)).toBe(
      true,
    );
  });

  it('a party of another workspace cannot be bound to a key', async () => {
    const res = await client(world.app, a.sessionToken, a.workspaceId).post('/v1/sandbox/api-keys', {
      name: 'x',
      party_id: b.defaultPartyId,
    });
    expect(res.statusCode).toBe(404);
  });

  it('audit-events pages newest first with limit and cursor', async () => {
    const owner = await signupOwner(world.app);
    for (let i = 0; i < 3; i++) await createApiKey(world.app, owner);
    const api = client(world.app, owner.sessionToken, owner.workspaceId);
    const first = (await api.get('/v1/sandbox/audit-events?limit=2')).json().data;
    expect(first).toHaveLength(2);
    const rest = (await api.get(`/v1/sandbox/audit-events?limit=10&cursor=${first[1].id}`)).json().data;
    expect(rest.map((e: { action: string }) => e.action)).toEqual(['api_key.created', 'workspace.created']);
    expect(first[0].id > first[1].id && first[1].id > rest[0].id).toBe(true);
  });
});
