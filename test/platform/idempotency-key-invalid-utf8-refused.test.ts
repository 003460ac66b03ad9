/**
 * Idempotency-Key bytes were once read back as UTF-8 leniently, so every byte sequence that is
 * not valid UTF-8 became U+FFFD: `order-1` + 0xff, 0xfe, 0xe9 or 0x80 were one key. The first made a
 * payout; the others, different keys to the client, were answered as its replay. A key that is not
 * valid UTF-8 is refused (400 invalid_request); valid keys stay byte-exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let ws: PixWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await pixWorkspace(ctx, 'Key bytes');
  await ws.setSettlementKey();
  await ws.cashIn('100000');
});
afterAll(() => ctx.close());

/** A header value as Node hands it over: one character per byte on the wire (latin1). */
const bytes = (...values: (string | number)[]) =>
  Buffer.concat(
    values.map((v) => (typeof v === 'number' ? Buffer.from([v]) : Buffer.from(v, 'utf8'))),
  ).toString('latin1');
const payout = (key: string) =>
  ws.api.post(
    '/v1/sandbox/pix/payouts',
    { amount_minor: '1000', pix_key: 'a@b.com' },
    { 'idempotency-key': key },
  );

describe('Idempotency-Key bytes', () => {
  it('keys that are not valid UTF-8 are refused, never folded into one', async () => {
    const before = await ws.paymentCount();
    for (const last of [0xff, 0xfe, 0xe9, 0x80]) {
      const res = await payout(bytes('order-1', last));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_request',
        details: [{ field: 'headers.idempotency-key' }],
      });
      expect(res.headers['idempotency-replayed']).toBeUndefined();
    }
    // An encoded lone surrogate (CESU-8) is not UTF-8 either.
    expect((await payout(bytes('order-2', 0xed, 0xb0, 0x80))).statusCode).toBe(400);
    expect(await ws.paymentCount()).toBe(before);
  });

  it('valid UTF-8 keys that differ in one character stay distinct', async () => {
    const first = await payout(bytes('pedido-é'));
    const second = await payout(bytes('pedido-è'));
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.headers['idempotency-replayed']).toBeUndefined();
    expect(second.json().data.id).not.toBe(first.json().data.id);
    const again = await payout(bytes('pedido-é'));
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
  });
});
