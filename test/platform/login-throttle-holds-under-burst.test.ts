/**
 * The login throttle once read the failure count, checked the
 * password, and only then counted the failure. Every login arriving while the first password checks
 * ran saw a count of 0, so a concurrent burst of guesses on one account was never stopped (39 × 401,
 * then 200 for the right password). An attempt now claims its slot before the password is checked.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { PASSWORD, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ rateLimitMax: 100_000 });
});
afterAll(() => ctx.close());

it('a concurrent burst of guesses checks at most 10 passwords, then answers 429', async () => {
  const victim = await signupOwner(ctx.app, 'Victim');
  const attempts = Array.from({ length: 40 }, (_, i) =>
    ctx.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: `198.51.100.${i % 10}`,
      payload: { email: victim.email, password: i === 39 ? PASSWORD : `guess ${i}` },
    }),
  );
  const codes = (await Promise.all(attempts)).map((res) => res.statusCode);
  expect(codes.filter((code) => code === 401).length).toBeLessThanOrEqual(10);
  expect(codes.filter((code) => code === 429).length).toBeGreaterThanOrEqual(29);
  expect(codes[39]).toBe(429);
});
