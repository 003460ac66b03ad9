/**
 * A login's one-time code is good once (RFC 6238 §5.2): the code that logged in, or that turned 2FA
 * on, never logs in again, and of concurrent logins with one code exactly one gets a session. One
 * step of clock drift either way is still accepted, but never a step at or before the last one used.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Owner, PASSWORD, signupOwner } from '../support/fixtures.ts';

/** RFC 6238's time step. */
const STEP_MS = 30_000;
let ctx: TestContext;
let owner: Owner;
let secret: string;
const code = (offsetMs = 0) => totpCode(secret, new Date(ctx.clock.now().getTime() + offsetMs));
const login = (otp_code: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: '198.51.100.7',
    payload: { email: owner.email, password: PASSWORD, otp_code },
  });
const sessions = async () =>
  (await ctx.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [owner.userId])).rows.length;

beforeAll(async () => {
  ctx = await startTestApp();
  // The clock runs with real time: start a second into a 30 s step, so the step that turns 2FA on is
  // still the step of the first login (one ending between them would make a fresh code, not a spent one).
  ctx.clock.advance(STEP_MS - (ctx.clock.now().getTime() % STEP_MS) + 1000);
  owner = await signupOwner(ctx.app, 'Uma Vez');
  const auth = { authorization: `Bearer ${owner.sessionToken}` };
  const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth });
  secret = setup.json().data.secret;
  const enable = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth,
    payload: { otp_code: code() },
  });
  expect(enable.statusCode, enable.body).toBe(200);
});
afterAll(() => ctx.close());

it('the code that turned 2FA on does not log in', async () => {
  const res = await login(code());
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json().error).toBe('otp_invalid');
});

it('two logins with one code: the first gets a session, the second 401 otp_invalid', async () => {
  ctx.clock.advance(30_000);
  const before = await sessions();
  const shared = code();
  const first = await login(shared);
  expect(first.statusCode, first.body).toBe(200);
  const second = await login(shared);
  expect(second.statusCode, second.body).toBe(401);
  expect(second.json()).toMatchObject({
    error: 'otp_invalid',
    message: expect.stringMatching(/already been used/),
  });
  expect(await sessions()).toBe(before + 1);
});

it('a code from the next step is accepted, and then the current step’s code is not', async () => {
  ctx.clock.advance(30_000);
  const ahead = await login(code(30_000));
  expect(ahead.statusCode, ahead.body).toBe(200);
  const current = await login(code());
  expect(current.statusCode, current.body).toBe(401);
  expect(current.json().error).toBe('otp_invalid');
  ctx.clock.advance(60_000);
  expect((await login(code())).statusCode).toBe(200);
});

it('concurrent logins with one code: exactly one session', async () => {
  ctx.clock.advance(60_000);
  const before = await sessions();
  const shared = code();
  const answers = await Promise.all(Array.from({ length: 8 }, () => login(shared)));
  expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  expect(await sessions()).toBe(before + 1);
});
