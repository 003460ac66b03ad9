/**
 * Every refusal of the RFQ and price routes: its status and code, and that it leaves no trace (no
 * quote executed, no payment, balances as they were).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParty } from '../ledger/helpers.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, enableProduction } from '../support/fixtures.ts';
import { EXECUTE, expireUrl, QUOTE, quoteUrl, rfqWorkspace } from './support.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const BUY = { base_amount_minor: '100000', base_currency: 'BRL', quote_currency: 'USDT' };

async function fundedWorkspace(name?: string) {
  const ws = await rfqWorkspace(ctx, name);
  await ws.cashIn('100000');
  return ws;
}

async function openQuote(ws: Awaited<ReturnType<typeof rfqWorkspace>>, body: object = BUY) {
  const res = await ws.api.post(QUOTE, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; status: string };
}

describe('POST /rfq/quote refusals', () => {
  it.each([
    ['same currency on both sides', { ...BUY, quote_currency: 'BRL' }, 'invalid_request'],
    [
      'stablecoin to stablecoin',
      { ...BUY, base_currency: 'USDT', quote_currency: 'USDC' },
      'invalid_request',
    ],
    ['a zero amount', { ...BUY, base_amount_minor: '0' }, 'invalid_amount'],
    ['a negative amount', { ...BUY, base_amount_minor: '-5' }, 'invalid_amount'],
    ['a decimal amount', { ...BUY, base_amount_minor: '10.5' }, 'invalid_amount'],
    ['a numeric amount', { ...BUY, base_amount_minor: 100000 }, 'invalid_amount'],
    ['17 digits', { ...BUY, base_amount_minor: '1'.repeat(17) }, 'invalid_amount'],
    ['an unknown base currency', { ...BUY, base_currency: 'EUR' }, 'unsupported_currency'],
    ['an unknown quote currency', { ...BUY, quote_currency: 'BTC' }, 'unsupported_currency'],
    ['a lower-case currency', { ...BUY, quote_currency: 'usdt' }, 'unsupported_currency'],
    ['no base_currency', { base_amount_minor: '100', quote_currency: 'USDT' }, 'invalid_request'],
    ['an unknown side', { ...BUY, side: 'hold' }, 'invalid_request'],
    ['a malformed party_id', { ...BUY, party_id: 'abc' }, 'invalid_request'],
    [
      'an amount buying under one minor unit',
      { base_amount_minor: '1', base_currency: 'USDT', quote_currency: 'BRL' },
      'invalid_amount',
    ],
  ])('%s → 400 %s, nothing stored', async (_name, body, code) => {
    const ws = await fundedWorkspace();
    const res = await ws.api.post(QUOTE, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe(code);
    const { rows } = await ctx.db.query('SELECT 1 FROM rfq_quotes WHERE workspace_id = $1', [
      ws.owner.workspaceId,
    ]);
    expect(rows).toHaveLength(0);
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
  });

  it("another workspace's party → 404", async () => {
    const ws = await fundedWorkspace();
    const other = await rfqWorkspace(ctx, 'Outra');
    const res = await ws.api.post(QUOTE, { ...BUY, party_id: other.owner.defaultPartyId });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});

describe('GET /prices refusals', () => {
  it.each(['BTC', 'usdt', 'USDT,EUR'])('symbols=%s → 400 invalid_request', async (symbols) => {
    const ws = await rfqWorkspace(ctx);
    const res = await ws.api.get(`/v1/sandbox/prices?symbols=${symbols}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});

describe('POST /rfq/execute refusals', () => {
  it.each([
    ['no quote id', {}],
    ['a malformed quote_id', { quote_id: 'nope' }],
    ['quote_id and id naming different quotes', { quote_id: crypto.randomUUID(), id: crypto.randomUUID() }],
  ])('%s → 400 invalid_request', async (_name, body) => {
    const ws = await fundedWorkspace();
    const res = await ws.api.post(EXECUTE, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('an unknown quote → 404 not_found', async () => {
    const ws = await fundedWorkspace();
    const res = await ws.api.post(EXECUTE, { quote_id: crypto.randomUUID() });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('a quote past its expires_at → 422 quote_expired; it reads as expired; nothing moves', async () => {
    const ws = await fundedWorkspace();
    const quote = await openQuote(ws);
    ctx.clock.advance(30_000);
    const res = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('quote_expired');
    expect((await ws.api.get(quoteUrl(quote.id))).json().data.status).toBe('expired');
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
    expect(await ws.paymentCount('rfq_settlement')).toBe(0);
  });

  it('the sandbox expire helper ends a quote now; repeating it answers the same; executing is 422', async () => {
    const ws = await fundedWorkspace();
    const quote = await openQuote(ws);
    const expired = await ws.api.post(expireUrl(quote.id));
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json().data.status).toBe('expired');
    expect(Date.parse(expired.json().data.expires_at)).toBeLessThanOrEqual(ctx.clock.now().getTime());
    const again = await ws.api.post(expireUrl(quote.id));
    expect(again.json().data).toEqual(expired.json().data);
    const res = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('quote_expired');
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
  });

  it('an executed quote → 409 quote_already_executed, and the helper cannot expire it (409)', async () => {
    const ws = await fundedWorkspace();
    const quote = await openQuote(ws);
    expect((await ws.api.post(EXECUTE, { quote_id: quote.id })).statusCode).toBe(200);
    const books = await ws.books();
    for (const res of [
      await ws.api.post(EXECUTE, { quote_id: quote.id }),
      await ws.api.post(expireUrl(quote.id)),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('quote_already_executed');
    }
    // past its expiry an executed quote is still "already executed", not "expired"
    ctx.clock.advance(60_000);
    expect((await ws.api.post(EXECUTE, { quote_id: quote.id })).json().error).toBe('quote_already_executed');
    expect(await ws.books()).toEqual(books);
    expect(await ws.paymentCount('rfq_settlement')).toBe(1);
  });

  it('a balance short of the base amount → 422 insufficient_balance; nothing moves and the quote stays open', async () => {
    const ws = await rfqWorkspace(ctx);
    await ws.cashIn('99999');
    const quote = await openQuote(ws);
    const journals = await ws.journalCount();
    const res = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('insufficient_balance');
    expect(await ws.books()).toEqual({ 'BRL:available': '99999' });
    expect(await ws.journalCount()).toBe(journals);
    expect(await ws.paymentCount('rfq_settlement')).toBe(0);
    expect((await ws.api.get(quoteUrl(quote.id))).json().data).toMatchObject({
      status: 'open',
      executed_payment_id: null,
    });
    // topped up, the same quote executes
    await ws.cashIn('1');
    expect((await ws.api.post(EXECUTE, { quote_id: quote.id })).statusCode).toBe(200);
    expect(await ws.books()).toEqual({ 'USDT:available': '184079601' });
  });
});

describe('tenancy and party scope', () => {
  it("another workspace's or environment's quote is 404 on every route, and nothing moves", async () => {
    const ws = await fundedWorkspace();
    const other = await fundedWorkspace('Outra');
    await enableProduction(ctx.app, ws.owner);
    const live = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'live')).secret,
      ws.owner.workspaceId,
    );
    const quote = await openQuote(ws);
    for (const res of [
      await other.api.get(quoteUrl(quote.id)),
      await other.api.post(EXECUTE, { quote_id: quote.id }),
      await other.api.post(expireUrl(quote.id)),
      await live.get(quoteUrl(quote.id, 'live')),
      await live.post('/v1/live/rfq/execute', { quote_id: quote.id }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
    expect(await other.books()).toEqual({ 'BRL:available': '100000' });
    expect((await ws.api.get(quoteUrl(quote.id))).json().data.status).toBe('open');
  });

  it('a party-scoped key quotes and converts only its own party', async () => {
    const ws = await fundedWorkspace();
    const customer = await addParty(ctx.db, ws.owner.workspaceId, 'Cliente');
    await ws.fund('BRL', 50000n, customer);
    const partyKey = (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: customer })).secret;
    const party = client(ctx.app, partyKey, ws.owner.workspaceId);

    const forbidden = await party.post(QUOTE, { ...BUY, party_id: ws.owner.defaultPartyId });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('forbidden');

    // the workspace's own quote does not exist for the party's key
    const workspaceQuote = await openQuote(ws);
    for (const res of [
      await party.get(quoteUrl(workspaceQuote.id)),
      await party.post(EXECUTE, { quote_id: workspaceQuote.id }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }

    const own = await party.post(QUOTE, { ...BUY, base_amount_minor: '50000' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.party_id).toBe(customer);
    expect((await party.post(EXECUTE, { quote_id: own.json().data.id })).statusCode).toBe(200);
    expect(await ws.books({ partyId: customer })).toEqual({ 'USDT:available': '92039800' });
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
    // the workspace-level key sees its customer's quote
    expect((await ws.api.get(quoteUrl(own.json().data.id))).json().data.status).toBe('executed');
  });

  it('a workspace-level key converts for a party it names', async () => {
    const ws = await rfqWorkspace(ctx);
    const customer = await addParty(ctx.db, ws.owner.workspaceId, 'Cliente');
    await ws.fund('USDC', 10_000000n, customer);
    const quote = await openQuote(ws, {
      base_amount_minor: '10000000',
      base_currency: 'USDC',
      quote_currency: 'BRL',
      party_id: customer,
    });
    expect((await ws.api.post(EXECUTE, { quote_id: quote.id })).statusCode).toBe(200);
    // 10 × 5.373 = 53.73 less ceil(0.05373) = 0.06
    expect(await ws.books({ partyId: customer })).toEqual({ 'BRL:available': '5367' });
  });

  it('a blocked party may neither quote nor execute an open quote (403); nothing moves', async () => {
    const ws = await fundedWorkspace();
    const quote = await openQuote(ws);
    await ctx.db.query(`UPDATE parties SET status = 'blocked' WHERE id = $1`, [ws.owner.defaultPartyId]);
    for (const res of [await ws.api.post(QUOTE, BUY), await ws.api.post(EXECUTE, { quote_id: quote.id })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect(await ws.books()).toEqual({ 'BRL:available': '100000' });
    expect((await ws.api.get(quoteUrl(quote.id))).json().data.status).toBe('open');
  });
});

describe('live', () => {
  async function liveWorkspace() {
    const ws = await rfqWorkspace(ctx);
    await enableProduction(ctx.app, ws.owner);
    const live = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'live')).secret,
      ws.owner.workspaceId,
    );
    await ws.credit('live', 100000n);
    return { ws, live };
  }

  it('with no price source configured: prices and quotes answer 503 provider_unavailable; nothing moves', async () => {
    const { ws, live } = await liveWorkspace();
    expect(ctx.deps.providers.has('prices', 'live')).toBe(false);
    for (const res of [await live.get('/v1/live/prices'), await live.post('/v1/live/rfq/quote', BUY)]) {
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('provider_unavailable');
    }
    expect(await ws.books({ env: 'live' })).toEqual({ 'BRL:available': '100000' });
    const { rows } = await ctx.db.query('SELECT 1 FROM rfq_quotes WHERE workspace_id = $1', [
      ws.owner.workspaceId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('a price source that fails answers 503 too; with one that works, live converts', async () => {
    const { ws, live } = await liveWorkspace();
    const original = ctx.deps.providers;
    const sandboxPrices = original.get('prices', 'sandbox');
    try {
      ctx.deps.providers = original.replacing('prices', 'live', {
        name: 'down',
        getPrices: async () => {
          const { PriceProviderUnavailableError } = await import('../../src/providers/prices/index.ts');
          throw new PriceProviderUnavailableError('timeout', 'timed out');
        },
      });
      const down = await live.post('/v1/live/rfq/quote', BUY);
      expect(down.statusCode).toBe(503);
      expect(down.json().error).toBe('provider_unavailable');

      ctx.deps.providers = original.replacing('prices', 'live', sandboxPrices);
      const quote = await live.post('/v1/live/rfq/quote', BUY);
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json().data).toMatchObject({ environment: 'live', quote_amount_minor: '184079601' });
      expect((await live.post('/v1/live/rfq/execute', { quote_id: quote.json().data.id })).statusCode).toBe(
        200,
      );
      expect(await ws.books({ env: 'live' })).toEqual({ 'USDT:available': '184079601' });
      expect(await ws.books()).toEqual({});
    } finally {
      ctx.deps.providers = original;
    }
  });
});
