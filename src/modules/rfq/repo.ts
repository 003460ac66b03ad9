import type { Queryable, Tx } from '../../db/types.ts';
import type { Currency } from '../../ledger/currency.ts';
import type { Environment } from '../../platform/context.ts';
import type { QuoteStatus } from './schemas.ts';

export interface QuoteRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  party_id: string;
  side: 'buy' | 'sell' | null;
  status: QuoteStatus;
  base_currency: Currency;
  quote_currency: Currency;
  base_amount_minor: bigint;
  gross_amount_minor: bigint;
  quote_amount_minor: bigint;
  rate: string;
  mid_price: string;
  price_source: string;
  price_as_of: Date;
  spread_bps: number;
  fee_bps: number;
  fee_minor: bigint;
  fee_currency: Currency;
  fixed_fee_minor: bigint;
  fill_price: string | null;
  executed_payment_id: string | null;
  executed_at: Date | null;
  expires_at: Date;
  created_at: Date;
}

export type NewQuoteRow = Omit<QuoteRow, 'status' | 'fill_price' | 'executed_payment_id' | 'executed_at'>;

/** Where a quote is looked up: one workspace and environment, and one party for a party-scoped key. */
export interface QuoteScope {
  workspaceId: string;
  environment: Environment;
  partyId: string | null;
}

const NEW_COLUMNS = [
  'id',
  'workspace_id',
  'environment',
  'party_id',
  'side',
  'base_currency',
  'quote_currency',
  'base_amount_minor',
  'gross_amount_minor',
  'quote_amount_minor',
  'rate',
  'mid_price',
  'price_source',
  'price_as_of',
  'spread_bps',
  'fee_bps',
  'fee_minor',
  'fee_currency',
  'fixed_fee_minor',
  'expires_at',
  'created_at',
] as const satisfies readonly (keyof NewQuoteRow)[];

export async function insertQuote(tx: Tx, row: NewQuoteRow): Promise<QuoteRow> {
  const { rows } = await tx.query<QuoteRow>(
    `INSERT INTO rfq_quotes (status, ${NEW_COLUMNS.join(', ')})
     VALUES ('open', ${NEW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    NEW_COLUMNS.map((column) => row[column]),
  );
  return rows[0]!;
}

/** A quote of the scope; with forUpdate its row stays locked until the transaction ends. */
export async function findQuoteRow(
  q: Queryable,
  scope: QuoteScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<QuoteRow | undefined> {
  const { rows } = await q.query<QuoteRow>(
    `SELECT * FROM rfq_quotes WHERE id = $1 AND workspace_id = $2 AND environment = $3
        AND ($4::uuid IS NULL OR party_id = $4)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows[0];
}

/** Marks a locked open quote executed; the CHECK ties the status to the payment id. */
export async function markExecuted(
  tx: Tx,
  quote: Pick<QuoteRow, 'workspace_id' | 'id'>,
  execution: { paymentId: string; at: Date; fillPrice: string },
): Promise<QuoteRow> {
  const { rows } = await tx.query<QuoteRow>(
    `UPDATE rfq_quotes SET status = 'executed', executed_payment_id = $3, executed_at = $4, fill_price = $5
      WHERE workspace_id = $1 AND id = $2 AND status = 'open' RETURNING *`,
    [quote.workspace_id, quote.id, execution.paymentId, execution.at, execution.fillPrice],
  );
  if (!rows[0]) throw new Error(`quote ${quote.id} was not open under its lock`);
  return rows[0];
}

/** Ends a locked open quote's validity now (the sandbox helper). */
export async function markExpired(
  tx: Tx,
  quote: Pick<QuoteRow, 'workspace_id' | 'id'>,
  at: Date,
): Promise<QuoteRow> {
  const { rows } = await tx.query<QuoteRow>(
    `UPDATE rfq_quotes SET status = 'expired', expires_at = least(expires_at, $3)
      WHERE workspace_id = $1 AND id = $2 AND status <> 'executed' RETURNING *`,
    [quote.workspace_id, quote.id, at],
  );
  if (!rows[0]) throw new Error(`quote ${quote.id} was executed under its lock`);
  return rows[0];
}

export interface PricingRow {
  spread_bps: number;
  fee_bps: number;
  fixed_fee_minor: bigint;
}

export async function findPricing(
  q: Queryable,
  workspaceId: string,
  environment: Environment,
  base: Currency,
  quote: Currency,
): Promise<PricingRow | undefined> {
  const { rows } = await q.query<PricingRow>(
    `SELECT spread_bps, fee_bps, fixed_fee_minor FROM rfq_pricing
      WHERE workspace_id = $1 AND environment = $2 AND base_currency = $3 AND quote_currency = $4`,
    [workspaceId, environment, base, quote],
  );
  return rows[0];
}

export async function upsertPricing(
  tx: Tx,
  key: { workspaceId: string; environment: Environment; base: Currency; quote: Currency },
  pricing: PricingRow,
): Promise<void> {
  await tx.query(
    `INSERT INTO rfq_pricing (workspace_id, environment, base_currency, quote_currency, spread_bps, fee_bps, fixed_fee_minor)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (workspace_id, environment, base_currency, quote_currency)
     DO UPDATE SET spread_bps = $5, fee_bps = $6, fixed_fee_minor = $7, updated_at = EXCLUDED.updated_at`,
    [
      key.workspaceId,
      key.environment,
      key.base,
      key.quote,
      pricing.spread_bps,
      pricing.fee_bps,
      pricing.fixed_fee_minor,
    ],
  );
}
