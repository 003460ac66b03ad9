/**
 * API keys are cached in each process's memory, so a revocation must reach every process: a key
 * revoked through one process is refused by another on the requests that follow, and a change to
 * whether live keys work (production off) too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { serverHarness } from '../support/server-process.ts';
import { client, createApiKey, enableProduction, signupOwner } from '../support/world.ts';

const harness = serverHarness('keycache', 7000, { METRICS_PORT: '0' });

describe('a revoked key on the next request', () => {
  it('is refused by the same process', async () => {
    const ctx = await startTestApp();
    try {
      const owner = await signupOwner(ctx.app);
      const key = await createApiKey(ctx.app, owner);
      const api = client(ctx.app, key.secret, owner.workspaceId);
      expect((await api.get('/v1/sandbox/balances')).statusCode).toBe(200);
      const revoked = await client(ctx.app, owner.sessionToken, owner.workspaceId).delete(
        `/v1/sandbox/api-keys/${key.id}`,
      );
      expect(revoked.statusCode, revoked.body).toBe(200);
      const res = await api.get('/v1/sandbox/balances');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('api_key_revoked');
    } finally {
      await ctx.close();
    }
  });

  it('stops a live key in the same process once production is turned off', async () => {
    const ctx = await startTestApp();
    try {
      const owner = await signupOwner(ctx.app);
      await enableProduction(ctx.app, owner);
      const key = await createApiKey(ctx.app, owner, 'live');
      const api = client(ctx.app, key.secret, owner.workspaceId);
      expect((await api.get('/v1/live/balances')).statusCode).toBe(200);
      const off = await client(ctx.app, owner.sessionToken, owner.workspaceId).patch('/v1/live/workspace', {
        production_enabled: false,
      });
      expect(off.statusCode, off.body).toBe(200);
      const res = await api.get('/v1/live/balances');
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('production_not_enabled');
    } finally {
      await ctx.close();
    }
  });
});

describe.runIf(onRealPostgres())('a revoked key with several API processes', () => {
  afterAll(() => harness.cleanup());

  it('is refused by every process on the requests that follow', async () => {
    await harness.prepare();
    const started = harness.start(['serve', '--processes', '2', '--no-workers']);
    expect(await harness.healthy()).toBe(true);
    const owner = await harness.owner('Revocation');
    const key = await harness.call('POST', '/v1/sandbox/api-keys', owner.session, owner.workspaceId, {
      name: 'revoked soon',
    });
    const secret: string = key.body.data.secret;
    const balances = () => harness.call('GET', '/v1/sandbox/balances', secret, owner.workspaceId);
    // Connections are spread over both processes, so each has looked the key up and kept it.
    for (let i = 0; i < 10; i++) expect((await balances()).status).toBe(200);
    const revoked = await harness.call(
      'DELETE',
      `/v1/sandbox/api-keys/${key.body.data.id}`,
      owner.session,
      owner.workspaceId,
    );
    expect(revoked.status, revoked.text).toBe(200);
    const after = [];
    for (let i = 0; i < 10; i++) after.push((await balances()).body.error);
    expect(after).toEqual(Array(10).fill('api_key_revoked'));
    started.child.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
