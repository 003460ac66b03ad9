/** A blocked customer's stablecoins cannot move either: its crypto sends answer 403, nothing moves. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type CryptoWorkspace, cryptoWorkspace, OUTSIDE, SEND } from './support.ts';

let ctx: TestContext;
let ws: CryptoWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx);
});
afterAll(() => ctx.close());

it('a blocked customer cannot send, and can again once active', async () => {
  const customer = (await ws.api.post('/v1/sandbox/customers', { display_name: 'Bia' })).json().data;
  const wallet = await ws.wallet('polygon', { party_id: customer.id });
  await ws.deposit(wallet.id, '5000000');
  await ws.whitelist('polygon', OUTSIDE.evm);
  const body = {
    network: 'polygon',
    currency: 'USDT',
    amount_minor: '1000000',
    to_address: OUTSIDE.evm,
    party_id: customer.id,
  };
  expect((await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, { status: 'blocked' })).statusCode).toBe(
    200,
  );
  const refused = await ws.api.post(SEND, body);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ error: 'forbidden' });
  expect(refused.json().message).toMatch(/blocked/);
  expect(await ws.coins('USDT', 'sandbox', customer.id)).toMatchObject({ available: '5000000' });

  expect((await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, { status: 'active' })).statusCode).toBe(
    200,
  );
  expect((await ws.api.post(SEND, body)).statusCode).toBe(200);
});
