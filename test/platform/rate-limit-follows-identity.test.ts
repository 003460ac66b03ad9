/**
 * The rate limit was once keyed on the raw Authorization text, while authentication accepts
 * any case of `Bearer` and any whitespace: 60 spellings of one key got 59 × 200 at RATE_LIMIT_MAX=5.
 * A junk Authorization header on a route that needs none (/v1/auth/login) bought a fresh allowance
 * per request: 30 password guesses, no 429. And nothing limited failed logins per account.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let apiKey: string;
beforeAll(async () => {
  ctx = await startTestApp({ rateLimitMax: 5 });
  owner = await signupOwner(ctx.app);
  apiKey = (await createApiKey(ctx.app, owner)).secret;
});
afterAll(() => ctx.close());

/** Each request from its own address unless told, so only the credential can tie them together. */
let nextHost = 1;
const freshIp = () => `10.0.${Math.floor(nextHost / 250)}.${(nextHost++ % 250) + 1}`;

describe('the rate limit follows the identity, not the header text', () => {
  it('spellings of one API key share one allowance', async () => {
    const spellings = [
      `Bearer ${apiKey}`,
      `bearer ${apiKey}`,
      `BEARER ${apiKey}`,
      `Bearer  ${apiKey}`,
      `Bearer\t${apiKey}`,
      `bEaReR ${apiKey} `,
      `Bearer   ${apiKey}  `,
      `BeArEr\t ${apiKey}`,
    ];
    const codes: number[] = [];
    for (const authorization of spellings) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/v1/sandbox/payments',
        remoteAddress: freshIp(),
        headers: { authorization, 'x-workspace-id': owner.workspaceId },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.slice(5)).toEqual([429, 429, 429]);
  });

  it('a junk Authorization header on login does not buy a fresh allowance for the address', async () => {
    const codes: number[] = [];
    let last: Awaited<ReturnType<typeof ctx.app.inject>> | undefined;
    for (let i = 0; i < 8; i++) {
      last = await ctx.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        remoteAddress: '192.0.2.10',
        headers: { authorization: `Bearer junk-${i}` },
        payload: { email: `nobody-${i}@example.com`, password: 'wrong password' },
      });
      codes.push(last.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5)).toEqual([429, 429, 429]);
    expect(last!.json().error).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('failed logins are limited per account', () => {
  it('after 10 failed attempts on one e-mail, from any addresses, the account answers 429', async () => {
    const victim = await signupOwner(ctx.app);
    const login = (password: string, remoteAddress = freshIp(), email = victim.email) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        remoteAddress,
        payload: { email, password },
      });
    for (let i = 0; i < 10; i++) {
      const res = await login(`guess ${i}`);
      expect(res.statusCode, res.body).toBe(401);
    }
    // The 11th guess is refused before the password is even checked, whatever the address or case.
    const guess = await login('guess 10', freshIp(), victim.email.toUpperCase());
    expect(guess.statusCode, guess.body).toBe(429);
    expect(guess.json().error).toBe('rate_limited');
    expect(Number(guess.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits out the lock: it cannot confirm a guess.
    expect((await login(victim.password)).statusCode).toBe(429);
    // Another account is not affected.
    const other = await signupOwner(ctx.app);
    expect((await login(other.password, freshIp(), other.email)).statusCode).toBe(200);
    // Nor is an e-mail nobody registered told apart from a registered one.
    expect((await login('x', freshIp(), `ghost-${randomUUID()}@example.com`)).statusCode).toBe(401);
  });
});
