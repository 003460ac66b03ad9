/**
 * Executes under concurrency, on PostgreSQL only (PGlite runs one transaction at a time, so nothing
 * there is concurrent): of concurrent executes of one quote exactly one settles it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { EXECUTE, QUOTE, quoteUrl, rfqWorkspace } from './support.ts';

describe.skipIf(!onRealPostgres())('RFQ executes under concurrency (PostgreSQL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.close());

  it('10 concurrent executes of one quote: one settlement, balances moved once, nine 409s', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.cashIn('300000');
    const quote = (
      await ws.api.post(QUOTE, { base_amount_minor: '100000', base_currency: 'BRL', quote_currency: 'USDT' })
    ).json().data;
    const journals = await ws.journalCount();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => ws.api.post(EXECUTE, { quote_id: quote.id })),
    );
    const ok = responses.filter((res) => res.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const res of responses.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toBe('quote_already_executed');
    }
    expect(await ws.paymentCount('rfq_settlement')).toBe(1);
    expect(await ws.journalCount()).toBe(journals + 1);
    expect(await ws.books()).toEqual({ 'BRL:available': '200000', 'USDT:available': '184079601' });
    expect((await ws.api.get(quoteUrl(quote.id))).json().data.executed_payment_id).toBe(
      ok[0]!.json().data.id,
    );
  });

  it('concurrent executes of different quotes on one balance never overdraw it', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.cashIn('300000');
    const quotes = await Promise.all(
      Array.from(
        { length: 6 },
        async () =>
          (
            await ws.api.post(QUOTE, {
              base_amount_minor: '100000',
              base_currency: 'BRL',
              quote_currency: 'USDT',
            })
          ).json().data,
      ),
    );
    const responses = await Promise.all(quotes.map((q) => ws.api.post(EXECUTE, { quote_id: q.id })));
    expect(responses.filter((res) => res.statusCode === 200)).toHaveLength(3);
    for (const res of responses.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('insufficient_balance');
    }
    expect(await ws.books()).toEqual({ 'USDT:available': String(3 * 184079601) });
  });
});
