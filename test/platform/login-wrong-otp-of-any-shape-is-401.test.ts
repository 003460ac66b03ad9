/**
 * API.md: `POST /v1/auth/login {email, password, otp_code?}`; once 2FA is on, a wrong code is
 * 401 `otp_invalid`. The route's schema (src/modules/owner/routes/login.ts:20 with OtpCode =
 * ^[0-9]{6}$, src/modules/owner/schemas.ts:14) turns any wrong code that is not six digits
 * ("12345", "1234567", "abcdef") into 400 `invalid_request` before the password and the code are
 * looked at, so a user with 2FA gets a different status for a wrong code depending on its length.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { type Owner, signupOwner, startWorld, type World } from '../support/world.ts';

let world: World;
let owner: Owner;
beforeAll(async () => {
  world = await startWorld();
  owner = await signupOwner(world.app);
  const auth = { authorization: `Bearer ${owner.sessionToken}` };
  const setup = await world.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth });
  expect(setup.statusCode, setup.body).toBe(200);
  const enable = await world.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth,
    payload: { otp_code: totpCode(setup.json().data.secret, world.clock.now()) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
});
afterAll(() => world.close());

describe('login with 2FA on and a wrong otp_code', () => {
  it.each(['000000', '12345', '1234567', 'abcdef'])(
    'otp_code %s → 401 otp_invalid, no session',
    async (code) => {
      const res = await world.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: owner.email, password: owner.password, otp_code: code },
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().error).toBe('otp_invalid');
    },
  );
});
