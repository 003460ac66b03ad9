/**
 * A send names its party `party_id`; without it the default party pays. A camelCase `partyId` is not
 * one of the spec's aliases, so it is refused rather than dropped (dropped, the default party paid).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type CryptoWorkspace, cryptoWorkspace, OUTSIDE, SEND } from './support.ts';

let ctx: TestContext;
let ws: CryptoWorkspace;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx);
  const wallet = await ws.wallet('polygon');
  await ws.deposit(wallet.id, '100000000');
  await ws.whitelist('polygon', OUTSIDE.evm);
});
afterAll(() => ctx.close());

describe('crypto send body', () => {
  it('a crypto send with `partyId` is refused and debits no party', async () => {
    const other = await ws.addParty('Other party');
    const before = await ws.coins();
    const res = await ws.api.post(SEND, {
      amount_minor: '1000000',
      to_address: OUTSIDE.evm,
      network: 'polygon',
      currency: 'USDT',
      partyId: other,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_request',
      details: [{ field: 'body.partyId', issue: 'unknown field' }],
    });
    expect(await ws.coins()).toEqual(before);
    expect(await ws.paymentCount('crypto_send')).toBe(0);
  });
});
