/**
 * Acting on a sub-account (X-Subaccount-Id): a parent quotes and converts on its child's books, and
 * the child's quotes are the child's, not the parent's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspace } from '../../src/modules/workspace/service.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { EXECUTE, expireUrl, QUOTE, quoteUrl, rfqWorkspace, systemNet } from './support.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it("a parent converts on its sub-account's books; the quote belongs to the child", async () => {
  const ws = await rfqWorkspace(ctx, 'Plataforma');
  const child = await ctx.db.transaction((tx) =>
    createWorkspace(tx, { displayName: 'Loja filha', parentWorkspaceId: ws.owner.workspaceId }),
  );
  const acting = { 'x-subaccount-id': child.id };
  await ws.cashIn('5000');
  const funded = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '100000' }, acting);
  expect(funded.statusCode, funded.body).toBe(200);

  const created = await ws.api.post(
    QUOTE,
    { base_amount_minor: '100000', base_currency: 'BRL', quote_currency: 'USDT' },
    acting,
  );
  expect(created.statusCode, created.body).toBe(200);
  const quote = created.json().data;
  expect(quote).toMatchObject({ workspace_id: child.id, party_id: child.default_party_id });

  // without the header the parent has no such quote
  for (const res of [
    await ws.api.get(quoteUrl(quote.id)),
    await ws.api.post(EXECUTE, { quote_id: quote.id }),
    await ws.api.post(expireUrl(quote.id)),
  ]) {
    expect(res.statusCode).toBe(404);
  }

  expect((await ws.api.get(quoteUrl(quote.id), acting)).json().data.status).toBe('open');
  const executed = await ws.api.post(EXECUTE, { quote_id: quote.id }, acting);
  expect(executed.statusCode, executed.body).toBe(200);
  expect(executed.json().data).toMatchObject({ workspace_id: child.id, kind: 'rfq_settlement' });

  expect(await ws.books({ partyId: child.default_party_id, headers: acting })).toEqual({
    'USDT:available': '184079601',
  });
  expect(await ws.books()).toEqual({ 'BRL:available': '5000' });
  // the conversion went through the child's own FX inventory
  expect(await systemNet(ctx.db, child.id, 'sandbox', 'fx_inventory', 'BRL')).toBe(100000n);
  expect(await ws.systemNet('fx_inventory', 'BRL')).toBe(0n);
});
