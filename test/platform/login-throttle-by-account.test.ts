/**
 * Failed logins are limited per account, and per address only as a looser bound: one person's
 * wrong codes (at login or on a crypto send) cannot lock out an unrelated account behind the same
 * address, while many accounts failing from one address still close that address.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { authHeaders, type Owner, PASSWORD, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const login = (email: string, remoteAddress: string, extra: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress,
    payload: { email, password: PASSWORD, ...extra },
  });

/** An owner with 2FA on; returns its current code's generator. */
async function twoFactorOwner(name: string): Promise<{ owner: Owner; code: () => string }> {
  const owner = await signupOwner(ctx.app, name);
  const auth = { authorization: `Bearer ${owner.sessionToken}` };
  const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth });
  const secret: string = setup.json().data.secret;
  const code = () => totpCode(secret, ctx.clock.now());
  const enable = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth,
    payload: { otp_code: code() },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  return { owner, code };
}

const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

it('54 wrong login codes by one user lock that user out, not a new account on the same address', async () => {
  const { owner, code } = await twoFactorOwner('Errante');
  const statuses: number[] = [];
  for (let i = 0; i < 54; i++)
    statuses.push((await login(owner.email, '198.51.100.20', { otp_code: wrongCode(code()) })).statusCode);
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(new Set(statuses.slice(10))).toEqual(new Set([429]));

  const stranger = await signupOwner(ctx.app, 'Recem Chegada');
  const res = await login(stranger.email, '198.51.100.20');
  expect(res.statusCode, res.body).toBe(200);
});

it('54 wrong X-OTP-Codes on crypto sends do not hold up anyone’s login on that address', async () => {
  const { owner, code } = await twoFactorOwner('Remetente');
  const statuses: number[] = [];
  for (let i = 0; i < 54; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/sandbox/crypto/send',
      remoteAddress: '198.51.100.21',
      headers: authHeaders(owner.sessionToken, owner.workspaceId, { 'x-otp-code': wrongCode(code()) }),
      payload: { amount_minor: '1', to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    statuses.push(res.statusCode);
  }
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(new Set(statuses.slice(10))).toEqual(new Set([429]));

  const stranger = await signupOwner(ctx.app, 'Vizinha');
  const res = await login(stranger.email, '198.51.100.21');
  expect(res.statusCode, res.body).toBe(200);
});

it('failures over many accounts from one address still close that address, and only it', async () => {
  for (let i = 0; i < 50; i++) {
    const res = await login(`nobody-${i}@example.com`, '198.51.100.22', { password: 'wrong' });
    expect(res.statusCode).toBe(401);
  }
  const stranger = await signupOwner(ctx.app, 'Outra');
  const closed = await login(stranger.email, '198.51.100.22');
  expect(closed.statusCode).toBe(429);
  expect(closed.json().message).toMatch(/^Too many failed logins; retry in \d+ s\.$/);
  expect((await login(stranger.email, '198.51.100.23')).statusCode).toBe(200);
});
