/**
 * The request context once parsed Idempotency-Key on every method but GET, so
 * a DELETE (or an automatic HEAD) carrying a key the API would refuse on a write answered 400, where it
 * had answered 200. API.md: the header is taken on POST, PUT and PATCH only.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { authHeaders } from '../support/fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('DELETE and HEAD ignore Idempotency-Key', async () => {
  const ws = await pixWorkspace(ctx);
  await ws.setSettlementKey();
  const tooLong = 'k'.repeat(256);
  const removed = await ctx.app.inject({
    method: 'DELETE',
    url: '/v1/sandbox/settlement-key',
    headers: authHeaders(ws.owner.sessionToken, ws.owner.workspaceId, { 'idempotency-key': tooLong }),
  });
  expect(removed.statusCode, removed.body).toBe(200);
  const head = await ctx.app.inject({
    method: 'HEAD',
    url: '/v1/sandbox/payments',
    headers: authHeaders(ws.apiKey, ws.owner.workspaceId, { 'idempotency-key': tooLong }),
  });
  expect(head.statusCode).toBe(200);
});
