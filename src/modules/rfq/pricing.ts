import type { Queryable, Tx } from '../../db/types.ts';
import type { Currency } from '../../ledger/currency.ts';
import type { Environment } from '../../platform/context.ts';
import { feeFor, rateFor } from './quote-math.ts';
import { findPricing, type PricingRow, upsertPricing } from './repo.ts';

/** How a workspace prices a conversion: the spread against the caller and the fee in the quote currency. */
export interface RfqPricing {
  spreadBps: number;
  feeBps: number;
  /** Minor units of the quote currency. */
  fixedFeeMinor: bigint;
}

/** Pricing of a workspace without its own row for the pair: 0.5 % spread, 0.1 % fee (docs/rfq.md). */
export const DEFAULT_RFQ_PRICING: RfqPricing = { spreadBps: 50, feeBps: 10, fixedFeeMinor: 0n };

const fromRow = (row: PricingRow): RfqPricing => ({
  spreadBps: row.spread_bps,
  feeBps: row.fee_bps,
  fixedFeeMinor: row.fixed_fee_minor,
});

/** The workspace's pricing of base → quote in an environment, or the defaults. */
export async function pricingFor(
  q: Queryable,
  workspaceId: string,
  environment: Environment,
  base: Currency,
  quote: Currency,
): Promise<RfqPricing> {
  const row = await findPricing(q, workspaceId, environment, base, quote);
  return row ? fromRow(row) : DEFAULT_RFQ_PRICING;
}

/**
 * Sets a workspace's pricing of one pair (an operator's decision; no public route sets it). The
 * figures are checked by the quote arithmetic's own rules, so a stored pricing can always quote.
 */
export async function setPricing(
  tx: Tx,
  key: { workspaceId: string; environment: Environment; base: Currency; quote: Currency },
  pricing: RfqPricing,
): Promise<void> {
  rateFor(key.base, key.quote, '1', pricing.spreadBps);
  feeFor(0n, pricing.feeBps, pricing.fixedFeeMinor);
  await upsertPricing(tx, key, {
    spread_bps: pricing.spreadBps,
    fee_bps: pricing.feeBps,
    fixed_fee_minor: pricing.fixedFeeMinor,
  });
}
