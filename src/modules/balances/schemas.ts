import { Type } from 'typebox';
import { BALANCE_KINDS } from '../../ledger/accounts.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { Timestamp, Uuid } from '../../platform/schema.ts';

export const BalanceKindSchema = Type.Enum(BALANCE_KINDS, {
  description: 'available, pending, locked or trading',
});

/** The spec's Balance resource. */
export const Balance = Type.Object({
  currency: Type.String(),
  kind: BalanceKindSchema,
  balance_minor: Type.String({ description: 'integer minor units' }),
  scale: Type.Integer({ description: 'decimal places of the currency' }),
  party_id: Uuid,
  owed_minor: Type.Optional(
    Type.String({
      description:
        'On the BRL available row of a party that owes: what it owes of MED returns its balance could not cover, in minor units; its next credits pay it first. Absent when it owes nothing.',
    }),
  ),
});

export const BalanceQuery = Type.Object({
  party_id: Type.Optional(Uuid),
  currency: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'BRL, USDT or USDC' })),
});

/** The spec's Ledger statement line: one party-side posting. */
export const StatementLine = Type.Object({
  id: Uuid,
  journal_id: Uuid,
  reference_type: Type.String(),
  reference_id: Type.String(),
  posted_at: Timestamp,
  party_id: Uuid,
  currency: Type.String(),
  kind: BalanceKindSchema,
  scale: Type.Integer(),
  direction: Type.Enum(['debit', 'credit'], {
    description: "from the party's point of view: credit increases its balance",
  }),
  amount_minor: Type.String({ description: 'integer minor units' }),
});

export const StatementQuery = Type.Object({
  ...PageQuery(100, 50),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'posted_at lower bound, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'posted_at upper bound, exclusive' })),
  kind: Type.Optional(BalanceKindSchema),
  party_id: Type.Optional(Uuid),
});

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
  kind: Type.Optional(BalanceKindSchema),
  party_id: Type.Optional(Uuid),
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
