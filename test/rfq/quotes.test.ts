/**
 * RFQ over HTTP, both directions, at the sandbox mid of 5.40 BRL per unit with the default pricing
 * (spread 50 bps, fee 10 bps): the worked examples of docs/rfq.md, down to the minor unit, and the
 * balances, books and events they leave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPricing } from '../../src/modules/rfq/service.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { EXECUTE, eventTypes, QUOTE, quoteUrl, rfqWorkspace } from './support.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('GET /prices', () => {
  it('answers every symbol the provider quotes, or the ones asked for', async () => {
    const ws = await rfqWorkspace(ctx);
    const all = await ws.api.get('/v1/sandbox/prices');
    expect(all.statusCode, all.body).toBe(200);
    const now = ctx.clock.now().toISOString();
    expect(all.json().data).toEqual([
      { symbol: 'USDT', price: '5.4', currency: 'BRL', as_of: expect.any(String) },
      { symbol: 'USDC', price: '5.4', currency: 'BRL', as_of: expect.any(String) },
    ]);
    expect(all.json().data[0].as_of <= now).toBe(true);
    const one = await ws.api.get('/v1/test/prices?symbols=USDC');
    expect(one.json().data.map((p: { symbol: string }) => p.symbol)).toEqual(['USDC']);
    const both = await ws.api.get('/v1/sandbox/prices?symbols=USDC,%20USDT');
    expect(both.json().data.map((p: { symbol: string }) => p.symbol)).toEqual(['USDT', 'USDC']);
  });
});

describe('buying USDT with R$ 1.000,00 (base BRL, quote USDT)', () => {
  it('quotes 184.079601 USDT, executes once, and moves exactly those amounts', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.cashIn('150000');
    const created = await ws.api.post(QUOTE, {
      base_amount_minor: '100000',
      base_currency: 'BRL',
      quote_currency: 'USDT',
      side: 'buy',
    });
    expect(created.statusCode, created.body).toBe(200);
    const quote = created.json().data;
    const at = Date.parse(quote.created_at);
    expect(quote).toEqual({
      id: quote.id,
      quote_id: quote.id,
      side: 'buy',
      base_currency: 'BRL',
      quote_currency: 'USDT',
      base_amount_minor: '100000',
      quote_amount_minor: '184079601',
      rate: '0.1842638658',
      status: 'open',
      expires_at: new Date(at + 30_000).toISOString(),
      workspace_id: ws.owner.workspaceId,
      party_id: ws.owner.defaultPartyId,
      environment: 'sandbox',
      spread_bps: 50,
      fee_bps: 10,
      fee_minor: '184264',
      fee_currency: 'USDT',
      fixed_fee_minor: '0',
      fill_price: null,
      executed_payment_id: null,
      executed_at: null,
      created_at: quote.created_at,
    });
    // a quote moves nothing
    expect(await ws.books()).toEqual({ 'BRL:available': '150000' });

    const executed = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(executed.statusCode, executed.body).toBe(200);
    const payment = executed.json().data;
    expect(payment).toMatchObject({
      kind: 'rfq_settlement',
      status: 'completed',
      party_id: ws.owner.defaultPartyId,
      amount_minor: '100000',
      currency: 'BRL',
      fee_minor: '184264',
      source_currency: 'BRL',
      target_currency: 'USDT',
      exchange_rate: '0.1842638658',
      quote_id: quote.id,
      metadata: { target_amount_minor: '184079601', fee_currency: 'USDT' },
    });
    expect(payment.completed_at).not.toBeNull();

    expect(await ws.books()).toEqual({ 'BRL:available': '50000', 'USDT:available': '184079601' });
    expect(await ws.systemNet('fx_inventory', 'BRL')).toBe(100000n);
    expect(await ws.systemNet('fx_inventory', 'USDT')).toBe(-184263865n);
    expect(await ws.systemNet('fee_revenue', 'USDT')).toBe(184264n);

    const after = (await ws.api.get(quoteUrl(quote.id))).json().data;
    expect(after).toMatchObject({
      status: 'executed',
      executed_payment_id: payment.id,
      executed_at: payment.created_at,
      fill_price: 5.43243246, // 1000 / 184.079601
    });
    expect((await ws.api.get(`/v1/sandbox/payments/${payment.id}`)).json().data).toEqual(payment);
    const types = await eventTypes(ctx.db, ws.owner.workspaceId);
    expect(types.slice(-2)).toEqual(['payment.completed', 'quote.executed']);
    const { rows } = await ctx.db.query<{ payload: { data: { object: unknown } } }>(
      `SELECT payload FROM events WHERE workspace_id = $1 AND type = 'quote.executed'`,
      [ws.owner.workspaceId],
    );
    expect(rows[0]!.payload.data.object).toEqual(after);
  });
});

describe('selling 100 USDT for BRL (base USDT, quote BRL)', () => {
  it('quotes R$ 536,76 and moves exactly those amounts; side is recorded only', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.fund('USDT', 250_000000n);
    // side says "buy", yet the direction is base → quote: the caller still sells USDT
    const created = await ws.api.post(QUOTE, {
      base_amount_minor: '100000000',
      base_currency: 'USDT',
      quote_currency: 'BRL',
      side: 'buy',
    });
    expect(created.statusCode, created.body).toBe(200);
    const quote = created.json().data;
    expect(quote).toMatchObject({
      side: 'buy',
      rate: '5.373',
      quote_amount_minor: '53676',
      fee_minor: '54',
      fee_currency: 'BRL',
    });
    const res = await ws.api.post(EXECUTE, { id: quote.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      amount_minor: '100000000',
      currency: 'USDT',
      source_currency: 'USDT',
      target_currency: 'BRL',
      exchange_rate: '5.373',
    });
    expect(await ws.books()).toEqual({ 'BRL:available': '53676', 'USDT:available': '150000000' });
    expect(await ws.systemNet('fx_inventory', 'USDT')).toBe(100_000000n);
    expect(await ws.systemNet('fx_inventory', 'BRL')).toBe(-53730n);
    expect(await ws.systemNet('fee_revenue', 'BRL')).toBe(54n);
    expect((await ws.api.get(quoteUrl(quote.id))).json().data.fill_price).toBe(5.3676);
  });

  it('a quote without side records none', async () => {
    const ws = await rfqWorkspace(ctx);
    const res = await ws.api.post(QUOTE, {
      base_amount_minor: '1000000',
      base_currency: 'USDC',
      quote_currency: 'BRL',
    });
    expect(res.statusCode, res.body).toBe(200);
    // floor(537.3) − ceil(0.537)
    expect(res.json().data).toMatchObject({ side: null, rate: '5.373', quote_amount_minor: '536' });
  });
});

describe('per-workspace pricing', () => {
  it("a workspace's own spread and fees apply to its quotes only, per pair", async () => {
    const ws = await rfqWorkspace(ctx);
    const other = await rfqWorkspace(ctx, 'Outra');
    await ctx.db.transaction((tx) =>
      setPricing(
        tx,
        { workspaceId: ws.owner.workspaceId, environment: 'sandbox', base: 'USDT', quote: 'BRL' },
        { spreadBps: 0, feeBps: 0, fixedFeeMinor: 150n },
      ),
    );
    const body = { base_amount_minor: '100000000', base_currency: 'USDT', quote_currency: 'BRL' };
    // 100 × 5.40 = R$ 540,00 at the mid, less the fixed R$ 1,50
    expect((await ws.api.post(QUOTE, body)).json().data).toMatchObject({
      rate: '5.4',
      spread_bps: 0,
      fee_bps: 0,
      fixed_fee_minor: '150',
      fee_minor: '150',
      quote_amount_minor: '53850',
    });
    expect((await other.api.post(QUOTE, body)).json().data).toMatchObject({ quote_amount_minor: '53676' });
    // the other direction of the pair keeps the defaults
    const buy = await ws.api.post(QUOTE, {
      base_amount_minor: '100000',
      base_currency: 'BRL',
      quote_currency: 'USDT',
    });
    expect(buy.json().data).toMatchObject({ spread_bps: 50, quote_amount_minor: '184079601' });
  });

  it('RFQ_QUOTE_TTL_SECONDS sets the validity', async () => {
    const short = await startTestApp({ rfqQuoteTtlSeconds: 5 });
    try {
      const ws = await rfqWorkspace(short);
      const quote = (
        await ws.api.post('/v1/sandbox/rfq/quote', {
          base_amount_minor: '100',
          base_currency: 'BRL',
          quote_currency: 'USDC',
        })
      ).json().data;
      expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(5000);
    } finally {
      await short.close();
    }
  });
});

describe('Idempotency-Key on execute', () => {
  it('a retry replays the settlement: one payment, balances moved once', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.cashIn('100000');
    const quote = (
      await ws.api.post(QUOTE, { base_amount_minor: '100000', base_currency: 'BRL', quote_currency: 'USDT' })
    ).json().data;
    const headers = { 'idempotency-key': 'exec-1' };
    const first = await ws.api.post(EXECUTE, { quote_id: quote.id }, headers);
    const again = await ws.api.post(EXECUTE, { quote_id: quote.id }, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await ws.paymentCount('rfq_settlement')).toBe(1);
    expect(await ws.books()).toEqual({ 'USDT:available': '184079601' });
    // without the key, a second execute is refused
    const bare = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(bare.statusCode).toBe(409);
    expect(bare.json().error).toBe('quote_already_executed');
  });
});
