/**
 * The lastro_session cookie carries a dashboard session and nothing else: an API key put in it is
 * 401 invalid_credentials, while the same key as a bearer token and a session in the cookie work.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let key: string;
beforeAll(async () => {
  ctx = await startTestApp();
  owner = await signupOwner(ctx.app, 'Biscoito');
  key = (await createApiKey(ctx.app, owner)).secret;
});
afterAll(() => ctx.close());

const balances = (cookie: string | undefined, authorization?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/v1/sandbox/balances',
    headers: { 'x-workspace-id': owner.workspaceId, ...(authorization ? { authorization } : {}) },
    cookies: cookie ? { lastro_session: cookie } : {},
  });

it('an API key inside the session cookie is refused', async () => {
  const res = await balances(key);
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json().error).toBe('invalid_credentials');
});

it('the key as a bearer token, and a session in the cookie, are accepted', async () => {
  expect((await balances(undefined, `Bearer ${key}`)).statusCode).toBe(200);
  expect((await balances(owner.sessionToken)).statusCode).toBe(200);
});

it('a user route (logout) refuses an API key in the cookie as an invalid session', async () => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/logout',
    cookies: { lastro_session: key },
  });
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json().error).toBe('invalid_credentials');
});
