import { Type } from 'typebox';
import { BALANCE_KINDS } from '../../ledger/accounts.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { doc, Timestamp, Uuid } from '../../platform/schema.ts';

export const BalanceKindSchema = Type.Enum(BALANCE_KINDS, {
  description: 'available, pending, locked or trading',
});

/** The spec's Balance resource. */
export const Balance = Type.Object({
  currency: Type.String({ description: 'BRL, USDT or USDC.' }),
  kind: BalanceKindSchema,
  balance_minor: Type.String({ description: 'integer minor units' }),
  scale: Type.Integer({ description: 'decimal places of the currency' }),
  party_id: doc(Uuid, 'The party whose balance this is.'),
  owed_minor: Type.Optional(
    Type.String({
      description:
        'On the BRL available row of a party that owes: what it owes of MED returns its balance could not cover, in minor units; its next credits pay it first. Absent when it owes nothing.',
    }),
  ),
});

export const BALANCE_EXAMPLE = {
  currency: 'BRL',
  kind: 'available',
  balance_minor: '742500',
  scale: 2,
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
};

export const BalanceQuery = Type.Object({
  party_id: Type.Optional(doc(Uuid, 'Only the balances of this party.')),
  currency: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'BRL, USDT or USDC' })),
});

/** The spec's Ledger statement line: one party-side posting. */
export const StatementLine = Type.Object({
  id: doc(Uuid, 'The ledger line id.'),
  journal_id: doc(Uuid, 'The journal entry the line is part of; its lines sum to zero.'),
  reference_type: Type.String({ description: 'What posted it: payment, fee, conversion …' }),
  reference_id: Type.String({ description: 'The id of what posted it (a payment id for a payment).' }),
  posted_at: doc(Timestamp, 'When it was posted to the ledger.'),
  party_id: doc(Uuid, 'The party whose balance the line moves.'),
  currency: Type.String({ description: 'BRL, USDT or USDC.' }),
  kind: BalanceKindSchema,
  scale: Type.Integer({ description: 'decimal places of the currency' }),
  direction: Type.Enum(['debit', 'credit'], {
    description: "from the party's point of view: credit increases its balance",
  }),
  amount_minor: Type.String({ description: 'integer minor units' }),
});

export const StatementQuery = Type.Object({
  ...PageQuery(100, 50),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'posted_at lower bound, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'posted_at upper bound, exclusive' })),
  kind: Type.Optional(doc(BalanceKindSchema, 'Only lines of this balance kind.')),
  party_id: Type.Optional(doc(Uuid, 'Only lines of this party.')),
});

export const STATEMENT_LINE_EXAMPLE = {
  id: '0194f3e0-5a6b-7c7d-8e8f-9a0b1c2d3e4f',
  journal_id: '0194f3e0-5a6b-7c7d-8e8f-9a0b1c2d3e40',
  reference_type: 'payment',
  reference_id: '0194f3a2-7c1e-7b3a-9d2f-4e5a6b7c8d90',
  posted_at: '2026-11-26T03:05:12.000Z',
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
  currency: 'BRL',
  kind: 'available',
  scale: 2,
  direction: 'credit',
  amount_minor: '14850',
};

/** A range bound of the CSV export: a local date (the whole day) or a date-time with its offset. */
const RangeBound = (edge: 'from' | 'to', description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], {
    description,
    examples: [edge === 'from' ? '2026-03-01' : '2026-03-31'],
  });

/** The range is required: a file is of a period, and a misspelt bound is then a 400, not everything. */
export const StatementCsvQuery = Type.Object({
  from: RangeBound(
    'from',
    'first day (YYYY-MM-DD, from its local midnight) or instant (date-time with offset, inclusive)',
  ),
  to: RangeBound(
    'to',
    'last day included (YYYY-MM-DD, to the next local midnight) or instant (date-time with offset, exclusive)',
  ),
  timezone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone of the dates and of the times written; default America/Sao_Paulo',
      examples: ['America/Sao_Paulo'],
    }),
  ),
  currency: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'BRL, USDT or USDC' })),
  kind: Type.Optional(doc(BalanceKindSchema, 'Only lines of this balance kind.')),
  party_id: Type.Optional(doc(Uuid, 'Only lines of this party.')),
});

/** The CSV's columns, in order (docs/guides/pix.md describes each). */
export const STATEMENT_CSV_COLUMNS = [
  'posted_at',
  'date',
  'id',
  'journal_id',
  'party_id',
  'currency',
  'kind',
  'direction',
  'amount',
  'amount_minor',
  'reference_type',
  'reference_id',
] as const;
