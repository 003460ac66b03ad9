import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, signupOwner } from '../support/fixtures.ts';

describe('first call walkthrough', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.close());

  it('signup → sandbox key → audit events', async () => {
    const owner = await signupOwner(ctx.app);
    const key = await createApiKey(ctx.app, owner);
    expect(key.secret).toMatch(/^lastro_test_sk_[0-9A-Za-z]{32,}$/);
    const res = await client(ctx.app, key.secret, owner.workspaceId).get('/v1/sandbox/audit-events');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: { action: string }) => e.action)).toEqual([
      'api_key.created',
      'workspace.created',
    ]);
  });
});
