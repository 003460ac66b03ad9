/**
 * GET /v1/{env}/reports/daily refuses a day that does not exist (30 February, 31 April) with 400
 * naming the field, rather than answering for the March or May day it would roll into.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Client, client, createApiKey, signupOwner } from '../support/world.ts';

let ctx: TestContext;
let api: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  const owner = await signupOwner(ctx.app, 'Calendário');
  api = client(ctx.app, (await createApiKey(ctx.app, owner, 'sandbox')).secret, owner.workspaceId);
});
afterAll(() => ctx.close());

it('a report from 30 February or to 31 April is 400 naming the field', async () => {
  const february = await api.get('/v1/sandbox/reports/daily?from=2026-02-30&to=2026-03-05');
  expect(february.statusCode, february.body).toBe(400);
  expect(february.json()).toMatchObject({
    error: 'invalid_request',
    details: [{ field: 'querystring.from', issue: 'is not a date' }],
  });
  const april = await api.get('/v1/sandbox/reports/daily?from=2026-04-01&to=2026-04-31');
  expect(april.statusCode, april.body).toBe(400);
  expect(april.json().details).toEqual([{ field: 'querystring.to', issue: 'is not a date' }]);
});
