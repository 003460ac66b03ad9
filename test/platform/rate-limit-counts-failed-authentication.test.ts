/**
 * @fastify/rate-limit once added its hook per route, after the app's
 * authentication hook, so a request that failed authentication was never counted, and every invented
 * token (its own credential key) had a fresh allowance. The limiter now runs before authentication,
 * and failed authentications also spend their address's allowance.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ rateLimitMax: 5 });
});
afterAll(() => ctx.close());

it('junk and invented tokens from one address are limited after the allowance', async () => {
  const owner = await signupOwner(ctx.app);
  const codes: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/v1/sandbox/payments',
      remoteAddress: '203.0.113.9',
      headers: {
        authorization: `Bearer lastro_test_sk_${String(i).padStart(40, 'x')}`,
        'x-workspace-id': owner.workspaceId,
      },
    });
    codes.push(res.statusCode);
  }
  expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  expect(codes.slice(5)).toEqual([429, 429, 429]);
});
