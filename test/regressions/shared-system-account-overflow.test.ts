/**
 * Review finding: the sandbox PIX settlement account is shared by every workspace of the environment,
 * and 16-digit cash-ins let one tenant drive it to the BIGINT limit, after which every other tenant's
 * cash-in failed with a 500. Sandbox cash-ins are now capped at what a BR Code can carry
 * (R$ 9,999,999,999.99), which puts that limit millions of requests away, and a value past BIGINT is
 * answered as 400 invalid_amount, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('shared PIX settlement account', () => {
  it('a cash-in above the BR Code maximum is 400 invalid_amount and moves nothing', async () => {
    const ws = await pixWorkspace(ctx, 'Big spender');
    const before = (await ws.api.get('/v1/sandbox/balances?currency=BRL')).json();
    const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '1000000000000' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_amount');
    expect((await ws.api.get('/v1/sandbox/balances?currency=BRL')).json()).toEqual(before);
    const max = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '999999999999' });
    expect(max.statusCode, max.body).toBe(200);
  });

  it('a balance pushed past BIGINT answers 400, not 500', async () => {
    const ws = await pixWorkspace(ctx, 'Edge');
    // Put the shared settlement account one cash-in away from the BIGINT limit, as a long attack would.
    await ctx.db.query(
      `UPDATE ledger_balances SET balance = -9223372036854775000
        WHERE account_id IN (SELECT id FROM ledger_accounts WHERE kind = 'pix_settlement' AND environment = 'sandbox')`,
    );
    const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '999999999999' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_amount');
  });
});
