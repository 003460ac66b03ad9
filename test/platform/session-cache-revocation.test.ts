/**
 * Dashboard sessions are cached in each process's memory, so every change that ends or narrows one
 * must reach every process: a logout through one process is refused by all on the requests that
 * follow, and 2FA turned on is seen by all (a 2FA caller's sends need a code; setup answers conflict).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { serverHarness } from '../support/server-process.ts';
import { untilCached } from '../support/session-statements.ts';
import { client, signupOwner } from '../support/world.ts';

const harness = serverHarness('sessioncache', 8000, { METRICS_PORT: '0' });

describe('a session changed, on the next request of the same process', () => {
  it('is refused once logged out', async () => {
    const ctx = await startTestApp();
    try {
      const owner = await signupOwner(ctx.app);
      const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
      expect(await untilCached(ctx.db, () => dashboard.get('/v1/sandbox/balances'))).toBe(true);
      expect((await dashboard.post('/v1/auth/logout', {})).statusCode).toBe(200);
      const res = await dashboard.get('/v1/sandbox/balances');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_credentials');
    } finally {
      await ctx.close();
    }
  });

  it('carries two-factor authentication once it is turned on', async () => {
    const ctx = await startTestApp();
    try {
      const owner = await signupOwner(ctx.app);
      const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
      const setup = await dashboard.post('/v1/auth/2fa/setup', {});
      expect(setup.statusCode, setup.body).toBe(200);
      expect(await untilCached(ctx.db, () => dashboard.get('/v1/sandbox/balances'))).toBe(true);
      const on = await dashboard.post('/v1/auth/2fa/enable', {
        otp_code: totpCode(setup.json().data.secret, ctx.clock.now()),
      });
      expect(on.statusCode, on.body).toBe(200);
      const again = await dashboard.post('/v1/auth/2fa/setup', {});
      expect(again.statusCode).toBe(409);
    } finally {
      await ctx.close();
    }
  });
});

describe.runIf(onRealPostgres())('a session changed, with several API processes', () => {
  afterAll(() => harness.cleanup());

  it('is refused by every process once logged out, and seen with 2FA by every process', async () => {
    await harness.prepare();
    const started = harness.start(['serve', '--processes', '2', '--no-workers']);
    expect(await harness.healthy()).toBe(true);

    const leaving = await harness.owner('Logout');
    const balances = () => harness.call('GET', '/v1/sandbox/balances', leaving.session, leaving.workspaceId);
    // Connections are spread over both processes, so each has looked the session up and kept it.
    for (let i = 0; i < 10; i++) expect((await balances()).status).toBe(200);
    const out = await harness.call('POST', '/v1/auth/logout', leaving.session, null, {});
    expect(out.status, out.text).toBe(200);
    const afterLogout = [];
    for (let i = 0; i < 10; i++) afterLogout.push((await balances()).body.error);
    expect(afterLogout).toEqual(Array(10).fill('invalid_credentials'));

    const careful = await harness.owner('TwoFactor');
    const setup = await harness.call('POST', '/v1/auth/2fa/setup', careful.session, null, {});
    expect(setup.status, setup.text).toBe(200);
    const call = (url: string) => harness.call('GET', url, careful.session, careful.workspaceId);
    for (let i = 0; i < 10; i++) expect((await call('/v1/sandbox/balances')).status).toBe(200);
    const on = await harness.call('POST', '/v1/auth/2fa/enable', careful.session, null, {
      otp_code: totpCode(setup.body.data.secret, new Date()),
    });
    expect(on.status, on.text).toBe(200);
    // A process still holding the session without 2FA would answer 200 and replace the secret.
    const afterOn = [];
    for (let i = 0; i < 10; i++)
      afterOn.push((await harness.call('POST', '/v1/auth/2fa/setup', careful.session, null, {})).status);
    expect(afterOn).toEqual(Array(10).fill(409));

    started.child.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
