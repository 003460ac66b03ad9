/**
 * A crypto send from a dashboard session of a 2FA user needs X-OTP-Code. Whether the user has 2FA
 * was taken from the session, now cached per process: a process that has not yet heard of a 2FA
 * turned on elsewhere (its notification still on the way, or a write that forgot to announce it)
 * would let the send through with no code. A session that says "off" is checked against the user.
 */
import { expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { untilCached } from '../support/session-statements.ts';
import { client, signupOwner } from '../support/world.ts';

it('a send by a session cached from before 2FA was turned on is refused without a code', async () => {
  const ctx = await startTestApp();
  try {
    const owner = await signupOwner(ctx.app);
    const dashboard = client(ctx.app, owner.sessionToken, owner.workspaceId);
    expect((await dashboard.post('/v1/auth/2fa/setup', {})).statusCode).toBe(200);
    expect(await untilCached(ctx.db, () => dashboard.get('/v1/sandbox/balances'))).toBe(true);
    // 2FA turned on by another process: its notification has not reached this one yet.
    await ctx.db.query('UPDATE users SET totp_enabled = true WHERE id = $1', [owner.userId]);

    const send = await dashboard.post('/v1/sandbox/crypto/send', {}, { 'idempotency-key': 'send-1' });
    expect(send.statusCode, send.body).toBe(401);
    expect(send.json().error).toBe('otp_required');
  } finally {
    await ctx.close();
  }
});
