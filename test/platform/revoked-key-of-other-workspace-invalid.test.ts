/**
 * authenticateKey once checked `revoked_at` before `key.workspace_id !== X-Workspace-Id`, so a
 * revoked key sent with another workspace's id answers 401 api_key_revoked instead of
 * invalid_credentials (API.md: "key of another workspace" → invalid_credentials; docs/architecture.md
 * orders the workspace check first). The answer tells a caller the key exists and was revoked,
 * whatever workspace it names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { client, createApiKey, signupOwner, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('auth order', () => {
  it('a revoked key of another workspace is invalid_credentials', async () => {
    const a = await signupOwner(world.app, 'A');
    const b = await signupOwner(world.app, 'B');
    const key = await createApiKey(world.app, a);
    const del = await client(world.app, a.sessionToken, a.workspaceId).delete(
      `/v1/sandbox/api-keys/${key.id}`,
    );
    expect(del.statusCode, del.body).toBe(200);
    const res = await client(world.app, key.secret, b.workspaceId).get('/v1/sandbox/payments');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });
});
