import { Decimal } from 'decimal.js';
import type { Queryable, Tx } from '../../db/types.ts';
import { currencyOf, formatAmount, parseAmount, scaleOf } from '../../ledger/currency.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { assertMayMoveMoney, owningParty } from '../parties/service.ts';
import { fetchPrices, translated } from './prices.ts';
import { pricingFor } from './pricing.ts';
import { computeQuote, pair } from './quote-math.ts';
import { findQuoteRow, insertQuote, type QuoteRow, type QuoteScope } from './repo.ts';
import type { QuoteInput, QuoteStatus, QuoteView } from './schemas.ts';

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** An open quote past its expires_at reads as expired: nothing has to run for it to lapse. */
export function quoteStatus(row: QuoteRow, now: Date): QuoteStatus {
  return row.status === 'open' && now.getTime() >= row.expires_at.getTime() ? 'expired' : row.status;
}

export function quoteView(row: QuoteRow, now: Date): QuoteView {
  return {
    id: row.id,
    quote_id: row.id,
    side: row.side,
    base_currency: row.base_currency,
    quote_currency: row.quote_currency,
    base_amount_minor: formatAmount(row.base_amount_minor),
    quote_amount_minor: formatAmount(row.quote_amount_minor),
    rate: row.rate,
    status: quoteStatus(row, now),
    expires_at: iso(row.expires_at),
    workspace_id: row.workspace_id,
    party_id: row.party_id,
    environment: row.environment,
    spread_bps: row.spread_bps,
    fee_bps: row.fee_bps,
    fee_minor: formatAmount(row.fee_minor),
    fee_currency: row.fee_currency,
    fixed_fee_minor: formatAmount(row.fixed_fee_minor),
    fill_price: row.fill_price === null ? null : Number(row.fill_price),
    executed_payment_id: row.executed_payment_id,
    executed_at: iso(row.executed_at),
    created_at: iso(row.created_at),
  };
}

export const quoteScope = (ctx: Ctx): QuoteScope => ({
  workspaceId: ctx.caller.workspaceId,
  environment: ctx.caller.environment,
  partyId: ctx.caller.partyId,
});

/** A quote of the caller's scope (another workspace's, environment's or party's → 404). */
export async function getQuote(q: Queryable, ctx: Ctx, input: { id: string }): Promise<QuoteView> {
  const row = await findQuoteRow(q, quoteScope(ctx), input.id);
  if (!row) throw notFound('Quote');
  return quoteView(row, ctx.deps.clock.now());
}

/**
 * Makes a firm quote: the caller pays base_amount_minor of base_currency and would receive
 * quote_amount_minor of quote_currency (docs/rfq.md). Checks, in order: body (400), party (403/404),
 * blocked party (403), price source (503), the amount buying at least one minor unit (400). The
 * price is fetched before the write's transaction opens: no provider call inside a transaction.
 */
export async function createQuote(ctx: Ctx, input: QuoteInput, write: Write): Promise<QuoteView> {
  const { caller, deps } = ctx;
  const baseAmount = parseAmount(input.base_amount_minor, { field: 'body.base_amount_minor' });
  const base = currencyOf(input.base_currency, 'body.base_currency');
  const quote = currencyOf(input.quote_currency, 'body.quote_currency');
  await translated(() => pair(base, quote));
  const partyId = await owningParty(deps.db, caller, input.party_id);
  await assertMayMoveMoney(deps.db, caller.workspaceId, partyId);
  const pricing = await pricingFor(deps.db, caller.workspaceId, caller.environment, base, quote);
  const coin = base === 'BRL' ? quote : base;
  const [price] = await fetchPrices(ctx, caller.environment, [coin]);
  if (!price) throw new Error(`the price source answered without ${coin}`);
  const amounts = await translated(() =>
    computeQuote({
      baseCurrency: base,
      quoteCurrency: quote,
      baseAmountMinor: baseAmount,
      midPrice: price.mid,
      ...pricing,
    }),
  );
  const at = deps.clock.now();
  // The view, not the row, is what an Idempotency-Key stores and replays (JSON keeps no Date or bigint).
  return write(async (tx) =>
    quoteView(
      await insertQuote(tx, {
        id: newId(),
        workspace_id: caller.workspaceId,
        environment: caller.environment,
        party_id: partyId,
        side: input.side ?? null,
        base_currency: base,
        quote_currency: quote,
        base_amount_minor: baseAmount,
        gross_amount_minor: amounts.grossMinor,
        quote_amount_minor: amounts.quoteAmountMinor,
        rate: amounts.rate,
        mid_price: price.mid,
        price_source: price.source,
        price_as_of: price.as_of,
        spread_bps: pricing.spreadBps,
        fee_bps: pricing.feeBps,
        fee_minor: amounts.feeMinor,
        fee_currency: amounts.feeCurrency,
        fixed_fee_minor: pricing.fixedFeeMinor,
        expires_at: new Date(at.getTime() + deps.config.rfqQuoteTtlSeconds * 1000),
        created_at: at,
      }),
      at,
    ),
  );
}

/**
 * The BRL paid or received per unit of the stablecoin, fee included, to 8 places: what the caller
 * actually traded at, whichever way the quote went. Informational (a JSON number); the exact figures
 * are the quote's amounts and rate.
 */
export function fillPrice(row: QuoteRow): string {
  const [brl, coin] =
    row.base_currency === 'BRL'
      ? [row.base_amount_minor, row.quote_amount_minor]
      : [row.quote_amount_minor, row.base_amount_minor];
  const coinCurrency = row.base_currency === 'BRL' ? row.quote_currency : row.base_currency;
  const brlMajor = new Decimal(brl.toString()).div(10 ** scaleOf('BRL'));
  const coinMajor = new Decimal(coin.toString()).div(10 ** scaleOf(coinCurrency));
  return brlMajor.div(coinMajor).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed();
}
