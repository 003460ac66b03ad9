/**
 * GET /v1/{env}/audit-events once filtered by workspace only, not by environment. A sandbox key
 * (the credential that lives in CI and on laptops) reads the live audit trail: live key revocations,
 * environment mismatches, their IPs, request ids and paths. Every other read is scoped to the path's
 * environment (API.md: another environment's data does not exist for the caller).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { client, createApiKey, signupOwner, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('audit events per environment', () => {
  it('a sandbox key does not see live audit events', async () => {
    const owner = await signupOwner(world.app, 'Audit env');
    const live = await createApiKey(world.app, owner, 'live', { name: 'live key' });
    const sandbox = await createApiKey(world.app, owner, 'sandbox', { name: 'sandbox key' });
    // a live event: the owner revokes the live key
    const revoked = await client(world.app, owner.sessionToken, owner.workspaceId).delete(
      `/v1/live/api-keys/${live.id}`,
    );
    expect(revoked.statusCode, revoked.body).toBe(200);

    const res = await client(world.app, sandbox.secret, owner.workspaceId).get('/v1/sandbox/audit-events');
    expect(res.statusCode, res.body).toBe(200);
    const environments = (res.json().data as { environment: string | null; action: string }[]).map(
      (e) => `${e.environment}:${e.action}`,
    );
    expect(environments.filter((e) => e.startsWith('live:'))).toEqual([]);
  });
});
