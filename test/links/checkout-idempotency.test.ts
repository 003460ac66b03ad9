/**
 * The hosted checkout takes an Idempotency-Key: a buyer whose answer was lost and who pays again
 * with the same key gets the same charge back, and no second charge is made.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { CPF, checkoutTrace, type LinksWorkspace, linksWorkspace, payer, startCheckout } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx, 'Loja Repetida');
});
afterAll(() => ctx.close());

it('two pays with the same key make one charge and give the same answer', async () => {
  const link = await ws.createLink({ amount_minor: '5000', title: 'Caneca' });
  const key = { 'idempotency-key': 'page-load-1f3a' };
  const first = await startCheckout(ctx, link.slug, payer(CPF), key);
  expect(first.statusCode, first.body).toBe(200);
  const again = await startCheckout(ctx, link.slug, payer(CPF), key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(await checkoutTrace(ctx, ws.owner.workspaceId)).toEqual({ records: 1, payments: 1 });

  // The same key with another form is another request: refused, nothing made.
  const changed = await startCheckout(ctx, link.slug, payer(CPF, 'Outra Pessoa'), key);
  expect(changed.statusCode).toBe(409);
  expect(changed.json().error).toBe('idempotency_key_reuse');
  // A new page load (a new key) is a new charge.
  const next = await startCheckout(ctx, link.slug, payer(CPF), { 'idempotency-key': 'page-load-2b7c' });
  expect(next.statusCode).toBe(200);
  expect(next.json().data.id).not.toBe(first.json().data.id);
  expect(await checkoutTrace(ctx, ws.owner.workspaceId)).toEqual({ records: 2, payments: 2 });
});

it("a buyer's key never meets the merchant's own keys", async () => {
  const link = await ws.createLink({ amount_minor: '1200', title: 'Chaveiro' });
  const key = { 'idempotency-key': 'shared-key' };
  const merchant = await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1200' }, key);
  expect(merchant.statusCode, merchant.body).toBe(200);
  const buyer = await startCheckout(ctx, link.slug, payer(CPF), key);
  expect(buyer.statusCode, buyer.body).toBe(200);
  expect(buyer.headers['idempotency-replayed']).toBeUndefined();
});

it('a pay sent again after the link closed gets its charge back, not a refusal', async () => {
  const link = await ws.createLink({ amount_minor: '3100', title: 'Camiseta' });
  const key = { 'idempotency-key': 'page-load-9d1e' };
  const first = await startCheckout(ctx, link.slug, payer(CPF), key);
  expect(first.statusCode, first.body).toBe(200);
  const closed = await ws.api.patch(`/v1/sandbox/payment-links/${link.id}`, { status: 'inactive' });
  expect(closed.statusCode, closed.body).toBe(200);
  const again = await startCheckout(ctx, link.slug, payer(CPF), key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  const fresh = await startCheckout(ctx, link.slug, payer(CPF), { 'idempotency-key': 'page-load-9d1f' });
  expect(fresh.statusCode).toBe(422);
});
