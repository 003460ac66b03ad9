import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createApiKey, signupOwner, startWorld, type World } from '../support/world.ts';

describe('first call walkthrough', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('signup → sandbox key → audit events', async () => {
    const owner = await signupOwner(world.app);
    const key = await createApiKey(world.app, owner);
    expect(key.secret).toMatch(/^lastro_test_sk_[0-9A-Za-z]{32,}$/);
    const res = await client(world.app, key.secret, owner.workspaceId).get('/v1/sandbox/audit-events');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: { action: string }) => e.action)).toEqual([
      'api_key.created',
      'workspace.created',
    ]);
  });
});
