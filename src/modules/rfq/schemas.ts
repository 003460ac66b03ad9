import { type Static, Type } from 'typebox';
import { AmountMinor, EnvironmentName, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

export const QUOTE_STATUSES = ['open', 'executed', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')], {
  description: 'recorded only: the direction is always base_currency → quote_currency',
});
const Minor = (description: string) => Type.String({ description: `integer minor units; ${description}` });

/** The spec's RFQ quote resource, plus fee_bps (the percentage part of fee_minor). */
export const Quote = Type.Object({
  id: Uuid,
  quote_id: Uuid,
  side: Nullable(Side),
  base_currency: Type.String({ description: 'what the caller pays' }),
  quote_currency: Type.String({ description: 'what the caller receives' }),
  base_amount_minor: Minor('paid by the caller'),
  quote_amount_minor: Minor('received by the caller, after the fee'),
  rate: Type.String({
    description: 'quote units per base unit, spread included, cut down to 10 places (decimal string)',
  }),
  status: Type.Enum(QUOTE_STATUSES, { description: 'open → executed | expired' }),
  expires_at: Timestamp,
  workspace_id: Uuid,
  party_id: Uuid,
  environment: EnvironmentName,
  spread_bps: Type.Integer({ description: 'basis points taken from the caller’s side of the mid' }),
  fee_bps: Type.Integer({ description: 'basis points of the gross quote amount, rounded up' }),
  fee_minor: Minor('in fee_currency: ceil(gross × fee_bps / 10000) + fixed_fee_minor'),
  fee_currency: Type.String({ description: 'always the quote currency' }),
  fixed_fee_minor: Minor('in fee_currency'),
  fill_price: Nullable(
    Type.Number({
      description:
        'once executed: the BRL paid or received per unit of the stablecoin, fee included (8 places)',
    }),
  ),
  executed_payment_id: Nullable(Uuid),
  executed_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type QuoteView = Static<typeof Quote>;

export const QuoteBody = Type.Object({
  base_amount_minor: AmountMinor,
  base_currency: Type.String({ minLength: 1, maxLength: 10, examples: ['BRL'] }),
  quote_currency: Type.String({ minLength: 1, maxLength: 10, examples: ['USDT'] }),
  party_id: Type.Optional(Uuid),
  side: Type.Optional(Side),
});
export type QuoteInput = Static<typeof QuoteBody>;

export const ExecuteBody = Type.Object({
  quote_id: Type.Optional(Uuid),
  id: Type.Optional(Type.String({ format: 'uuid', description: 'alias of quote_id' })),
});
export type ExecuteInput = Static<typeof ExecuteBody>;

/** API.md's price: BRL per one unit of the symbol (the mid of the provider's book). */
export const Price = Type.Object({
  symbol: Type.String({ examples: ['USDT'] }),
  price: Type.String({ description: 'BRL per one unit, decimal string', examples: ['5.4'] }),
  currency: Type.Literal('BRL'),
  as_of: Timestamp,
});
export type PriceView = Static<typeof Price>;

export const PricesQuery = Type.Object({
  symbols: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'comma-separated, e.g. USDT,USDC; omitted means every symbol the provider quotes',
    }),
  ),
});
