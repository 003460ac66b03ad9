/**
 * Finding: a string containing U+0000 passes the typebox schemas (description, metadata values,
 * payer.name) but PostgreSQL refuses NUL in text/jsonb, so the request ends as 500 internal_error
 * instead of 400 invalid_request (API.md: schema violation → 400; 500 only for our own faults).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let ws: PixWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await pixWorkspace(ctx, 'Nul');
  await ws.setSettlementKey();
  await ws.cashIn('100000');
});
afterAll(() => ctx.close());

describe('NUL characters in body strings', () => {
  it.each([
    ['/v1/sandbox/pix/charges', { amount_minor: '1000', description: 'a\u0000b' }],
    ['/v1/sandbox/pix/charges', { amount_minor: '1000', metadata: { note: 'a\u0000b' } }],
    ['/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: 'a@b.com', description: 'a\u0000b' }],
    ['/v1/sandbox/simulate/pix/cash-in', { amount_minor: '1000', payer: { name: 'a\u0000b' } }],
  ])('%s %j → 400, not 500', async (url, body) => {
    const res = await ws.api.post(url, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});
