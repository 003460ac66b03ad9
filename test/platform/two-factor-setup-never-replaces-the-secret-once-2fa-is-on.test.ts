/**
 * Setting 2FA up replaces the user's TOTP secret, so it must never run once 2FA is on: whoever holds
 * the session (a stolen token) would swap the owner's authenticator for their own, and then pass
 * every code check (crypto sends, recovery codes, login with the password). The "already on" check
 * read the session, which is now cached per process: a process that has not yet heard of a 2FA
 * turned on elsewhere (its notification still on the way) still says off. The database decides.
 */
import { expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { untilCached } from '../support/session-statements.ts';
import { client, signupOwner } from '../support/world.ts';

it('a session cached from before 2FA was turned on cannot set up a new secret', async () => {
  const ctx = await startTestApp();
  try {
    const owner = await signupOwner(ctx.app);
    const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
    const setup = await dashboard.post('/v1/auth/2fa/setup', {});
    expect(setup.statusCode, setup.body).toBe(200);
    expect(await untilCached(ctx.db, () => dashboard.get('/v1/sandbox/balances'))).toBe(true);
    const secretOf = async () =>
      (
        await ctx.db.query<{ s: string }>('SELECT totp_secret_enc AS s FROM users WHERE id = $1', [
          owner.userId,
        ])
      ).rows[0]?.s;
    const before = await secretOf();
    // 2FA turned on by another process: its notification has not reached this one yet.
    await ctx.db.query('UPDATE users SET totp_enabled = true WHERE id = $1', [owner.userId]);

    const again = await dashboard.post('/v1/auth/2fa/setup', {});
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error).toBe('conflict');
    expect(await secretOf()).toBe(before);
  } finally {
    await ctx.close();
  }
});
