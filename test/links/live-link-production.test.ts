/**
 * A live payment link takes real money only while its workspace's production is on, as a live API
 * key does: with production off its page says so and its checkout refuses, making no charge.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { authHeaders, client, createApiKey, enableProduction } from '../support/world.ts';
import { CPF, checkoutTrace, type LinksWorkspace, linksWorkspace, payer, startCheckout } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx, 'Loja Ao Vivo');
});
afterAll(() => ctx.close());

it("a live link's page and checkout refuse while the workspace's production is off", async () => {
  await enableProduction(ctx.app, ws.owner);
  const live = client(ctx.app, (await createApiKey(ctx.app, ws.owner, 'live')).secret, ws.owner.workspaceId);
  const created = await live.post('/v1/live/payment-links', { amount_minor: '2500', title: 'Ao vivo' });
  expect(created.statusCode, created.body).toBe(200);
  const { slug } = created.json().data;
  expect((await ctx.app.inject({ method: 'GET', url: `/pay/${slug}` })).statusCode).toBe(200);

  const off = await ctx.app.inject({
    method: 'PATCH',
    url: '/v1/live/workspace',
    headers: authHeaders(ws.owner.sessionToken, ws.owner.workspaceId),
    payload: { production_enabled: false },
  });
  expect(off.statusCode, off.body).toBe(200);

  const page = await ctx.app.inject({
    method: 'GET',
    url: `/pay/${slug}`,
    headers: { 'accept-language': 'en' },
  });
  expect(page.statusCode).toBe(403);
  expect(page.body).toContain('not enabled for real payments');
  expect(page.body).not.toContain('checkout-form');
  const pay = await startCheckout(ctx, slug, payer(CPF));
  expect(pay.statusCode).toBe(403);
  expect(pay.json()).toMatchObject({ error: 'production_not_enabled' });
  expect(pay.json().message).toMatch(/production is off/);
  const { rows } = await ctx.db.query(
    "SELECT 1 FROM payments WHERE workspace_id = $1 AND environment = 'live'",
    [ws.owner.workspaceId],
  );
  expect(rows).toHaveLength(0);
  expect(await checkoutTrace(ctx, ws.owner.workspaceId)).toEqual({ records: 0, payments: 0 });
});
