/**
 * Nobody announces a session's expiry, so the cache cannot forget it: the cached session's expiry is
 * checked on every use, and a session past it is refused though the cache still holds it.
 */
import { expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { sessionStatements, untilCached } from '../support/session-statements.ts';
import { client, signupOwner } from '../support/world.ts';

it('a cached session past its expiry is refused without a lookup', async () => {
  const ctx = await startTestApp();
  try {
    const owner = await signupOwner(ctx.app);
    const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
    const balances = () => dashboard.get('/v1/sandbox/balances');
    expect(await untilCached(ctx.db, balances)).toBe(true);
    ctx.clock.advance(ctx.deps.config.sessionTtlHours * 3600_000 + 1000);
    let res: Awaited<ReturnType<typeof balances>> | undefined;
    // No statement: the cache answered, and its entry (under a minute old) was refused for expiry.
    expect(await sessionStatements(ctx.db, async () => (res = await balances()))).toBe(0);
    expect(res?.statusCode).toBe(401);
    expect(res?.json().error).toBe('invalid_credentials');
    const setup = await ctx.app.inject({
      method: 'POST',
      url: '/v1/auth/2fa/setup',
      headers: { authorization: `Bearer ${owner.sessionToken}` },
    });
    expect(setup.statusCode).toBe(401);
  } finally {
    await ctx.close();
  }
});
