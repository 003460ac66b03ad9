import { type Static, Type } from 'typebox';
import { AmountMinor, doc, EnvironmentName, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

export const QUOTE_STATUSES = ['open', 'executed', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')], {
  description: 'recorded only: the direction is always base_currency → quote_currency',
});
const Minor = (description: string) => Type.String({ description: `integer minor units; ${description}` });

/** The spec's RFQ quote resource, plus fee_bps (the percentage part of fee_minor). */
export const Quote = Type.Object({
  id: doc(Uuid, 'The quote id.'),
  quote_id: doc(Uuid, 'The quote id again, as API.md names it.'),
  side: Nullable(Side),
  base_currency: Type.String({ description: 'what the caller pays' }),
  quote_currency: Type.String({ description: 'what the caller receives' }),
  base_amount_minor: Minor('paid by the caller'),
  quote_amount_minor: Minor('received by the caller, after the fee'),
  rate: Type.String({
    description: 'quote units per base unit, spread included, cut down to 10 places (decimal string)',
  }),
  status: Type.Enum(QUOTE_STATUSES, { description: 'open → executed | expired' }),
  expires_at: doc(Timestamp, 'Until when the quote can be executed.'),
  workspace_id: doc(Uuid, 'The workspace of the quote.'),
  party_id: doc(Uuid, 'The party whose balances the execution moves.'),
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
  executed_payment_id: Nullable(Uuid, {
    description: 'The conversion payment its execution made; null until executed.',
  }),
  executed_at: Nullable(Timestamp, { description: 'When it was executed; null until then.' }),
  created_at: doc(Timestamp, 'When the quote was given.'),
});

export const QUOTE_EXAMPLE = {
  id: '0194f400-7c8d-7e9f-8a0b-1c2d3e4f5a6b',
  quote_id: '0194f400-7c8d-7e9f-8a0b-1c2d3e4f5a6b',
  side: null,
  base_currency: 'BRL',
  quote_currency: 'USDT',
  base_amount_minor: '100000',
  quote_amount_minor: '18315',
  rate: '0.1838235294',
  status: 'open',
  expires_at: '2026-11-26T03:00:30.000Z',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
  environment: 'sandbox',
  spread_bps: 50,
  fee_bps: 30,
  fee_minor: '56',
  fee_currency: 'USDT',
  fixed_fee_minor: '0',
  fill_price: null,
  executed_payment_id: null,
  executed_at: null,
  created_at: '2026-11-26T03:00:00.000Z',
};
export type QuoteView = Static<typeof Quote>;

export const QuoteBody = Type.Object(
  {
    base_amount_minor: doc(
      AmountMinor,
      'What you pay, in minor units of base_currency ("100000" is R$ 1,000.00).',
    ),
    base_currency: Type.String({
      minLength: 1,
      maxLength: 10,
      examples: ['BRL'],
      description: 'What you pay: BRL, USDT or USDC.',
    }),
    quote_currency: Type.String({
      minLength: 1,
      maxLength: 10,
      examples: ['USDT'],
      description: 'What you receive: BRL, USDT or USDC.',
    }),
    party_id: Type.Optional(
      doc(Uuid, "The party whose balances convert; the workspace's own when left out."),
    ),
    side: Type.Optional(Side),
  },
  { examples: [{ base_amount_minor: '100000', base_currency: 'BRL', quote_currency: 'USDT' }] },
);
export type QuoteInput = Static<typeof QuoteBody>;

export const ExecuteBody = Type.Object(
  {
    quote_id: Type.Optional(doc(Uuid, 'The open quote to execute.')),
    id: Type.Optional(Type.String({ format: 'uuid', description: 'alias of quote_id' })),
  },
  { examples: [{ quote_id: '0194f400-7c8d-7e9f-8a0b-1c2d3e4f5a6b' }] },
);
export type ExecuteInput = Static<typeof ExecuteBody>;

/** API.md's price: BRL per one unit of the symbol (the mid of the provider's book). */
export const Price = Type.Object({
  symbol: Type.String({ examples: ['USDT'], description: 'The stablecoin: USDT or USDC.' }),
  price: Type.String({ description: 'BRL per one unit, decimal string', examples: ['5.4'] }),
  currency: Type.Literal('BRL', { description: 'The currency of the price: always BRL.' }),
  as_of: doc(Timestamp, 'When the provider gave the price.'),
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
