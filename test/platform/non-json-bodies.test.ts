/**
 * A body that is not application/json is 400 invalid_request naming the content type
 * (docs/errors.md), on every route: session routes that take no body do nothing with it (logout
 * keeps the session, 2FA setup issues no new secret), and routes with a schema say what was wrong
 * with the request rather than that a string is not an object.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { authHeaders, type Owner, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
beforeAll(async () => {
  ctx = await startTestApp();
});
// Each case has its own owner, so one route's outcome cannot decide another's.
beforeEach(async () => {
  owner = await signupOwner(ctx.app, 'Texto Puro');
});
afterAll(() => ctx.close());

const NOT_JSON = {
  error: 'invalid_request',
  message: 'Send the body as application/json.',
  details: [{ field: 'headers.content-type', issue: 'must be application/json' }],
};
const asText = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain', ...headers },
    cookies: { lastro_session: owner.sessionToken },
    payload: 'hello',
  });
const secretOf = async () =>
  (
    await ctx.db.query<{ s: string | null }>('SELECT totp_secret_enc AS s FROM users WHERE id = $1', [
      owner.userId,
    ])
  ).rows[0]?.s;

it('logout with a text/plain body is refused and the session stays', async () => {
  const res = await asText('/v1/auth/logout');
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject(NOT_JSON);
  const still = await ctx.app.inject({
    method: 'GET',
    url: '/v1/sandbox/balances',
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
  });
  expect(still.statusCode, still.body).toBe(200);
});

it('2FA setup with a text/plain body is refused and issues no secret', async () => {
  const res = await asText('/v1/auth/2fa/setup');
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject(NOT_JSON);
  expect(await secretOf()).toBeNull();
});

it('a route with a body schema answers the same documented error, not "body must be object"', async () => {
  const login = await asText('/v1/auth/login');
  expect(login.statusCode, login.body).toBe(400);
  expect(login.json()).toMatchObject(NOT_JSON);
  const customer = await asText('/v1/sandbox/customers', { 'x-workspace-id': owner.workspaceId });
  expect(customer.statusCode, customer.body).toBe(400);
  expect(customer.json()).toMatchObject(NOT_JSON);
});
