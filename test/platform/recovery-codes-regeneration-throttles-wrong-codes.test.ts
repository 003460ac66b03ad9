/**
 * POST /v1/auth/2fa/recovery-codes counts wrong codes like a crypto send's X-OTP-Code: past the
 * limit a logged-in session (perhaps a stolen one) is refused with 429 before its code is checked,
 * so it cannot guess authenticator codes until one hands it a fresh set of recovery codes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOGIN_FAILURES_PER_ACCOUNT } from '../../src/platform/auth/login-throttle.ts';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Owner, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let secret: string;
const auth = () => ({ authorization: `Bearer ${owner.sessionToken}` });
const regenerate = (otp_code: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/recovery-codes',
    headers: auth(),
    remoteAddress: '198.51.100.22',
    payload: { otp_code },
  });

beforeAll(async () => {
  ctx = await startTestApp();
  owner = await signupOwner(ctx.app, 'Adivinha');
  const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth() });
  secret = setup.json().data.secret;
  const enable = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth(),
    payload: { otp_code: totpCode(secret, ctx.clock.now()) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
});
afterAll(() => ctx.close());

it('a new set of recovery codes is refused with 429 after too many wrong codes, even with a right one', async () => {
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
    const wrong = await regenerate(String(100000 + i));
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(wrong.json().error).toBe('otp_invalid');
  }
  ctx.clock.advance(60_000);
  const right = await regenerate(totpCode(secret, ctx.clock.now()));
  expect(right.statusCode, right.body).toBe(429);
  expect(right.json().error).toBe('rate_limited');
  expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
});
