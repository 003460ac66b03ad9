import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import {
  AmountMinor,
  doc,
  EnvironmentName,
  Metadata,
  MetadataBody,
  Name,
  Nullable,
  Timestamp,
  Uuid,
} from '../../platform/schema.ts';
import { FREQUENCIES } from './schedule.ts';

export const SUBSCRIPTION_STATUSES = [
  'pending_authorisation',
  'active',
  'refused',
  'cancelled',
  'expired',
  'completed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const CYCLE_STATUSES = ['scheduled', 'retrying', 'paid', 'failed', 'cancelled', 'skipped'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

const Day = (description: string) =>
  Type.String({
    format: 'date',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description,
    examples: ['2027-01-10'],
  });

const Debtor = Type.Object(
  {
    name: Name(140, {
      description: 'The payer, as their PSP shows the authorisation (vinculo.devedor.nome).',
    }),
    document: Type.String({
      minLength: 11,
      maxLength: 18,
      description: 'The payer’s CPF (11 digits) or CNPJ (14); punctuation is ignored. Shown masked.',
      examples: ['52998224725'],
    }),
  },
  { description: 'Who pays each cycle: the account holder who authorises the recurrence at their PSP.' },
);

export const CreateSubscriptionBody = Type.Object(
  {
    party_id: Type.Optional(
      doc(Uuid, 'The party credited with each paid cycle; the key’s party, else the workspace’s default.'),
    ),
    debtor: Debtor,
    amount_minor: Type.Optional(
      doc(
        AmountMinor,
        'Fixed amount of every cycle, in centavos (valorRec). Exactly one of amount_minor or minimum_minor.',
      ),
    ),
    minimum_minor: Type.Optional(
      doc(
        AmountMinor,
        'Variable amount: the floor the payer’s maximum may not go below (valorMinimoRecebedor); each cycle is charged this amount.',
      ),
    ),
    frequency: Type.Enum(FREQUENCIES, {
      description:
        'How often a cycle falls due (periodicidade: SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL, ANUAL).',
    }),
    start_date: Day('Due date of the first cycle (dataInicial), at least 2 days after today (São Paulo).'),
    end_date: Type.Optional(Day('Last day a cycle may fall due (dataFinal); none: until cancelled.')),
    retry_policy: Type.Optional(
      Type.Enum(['none', 'three_in_seven_days'], {
        description:
          'After a failed payment on the due date: none (NAO_PERMITE), or up to 3 retries within 7 days (PERMITE_3R_7D). Default none.',
      }),
    ),
    description: Type.Optional(
      Type.String({
        maxLength: 35,
        description: 'What the payer sees the payments are for (vinculo.objeto).',
      }),
    ),
    metadata: Type.Optional(MetadataBody),
  },
  {
    description: 'A Pix Automático recurrence for the payer to authorise at their PSP.',
    examples: [
      {
        debtor: { name: 'Fulano de Tal', document: '52998224725' },
        amount_minor: '3500',
        frequency: 'monthly',
        start_date: '2027-01-10',
        retry_policy: 'three_in_seven_days',
        description: 'Streaming mensal',
      },
    ],
  },
);
export type CreateSubscriptionRequest = Static<typeof CreateSubscriptionBody>;

const Rejection = {
  rejection_code: Nullable(
    Type.String({
      description:
        'The PSP’s rejection code for a failed attempt (API Pix tentativas[].rejeicao.codigo, the SPI’s catalogue: AM02, AC06, …); null when paid, or when the PSP gave none (sandbox).',
    }),
  ),
  rejection_reason: Nullable(
    Type.String({
      description:
        'Why it failed: the PSP’s rejeicao.descricao, else ours (payer_insufficient_funds in sandbox, psp_attempt_failed, psp_rejeitada, psp_expirada, psp_cancelada); null when paid.',
    }),
  ),
};

const Attempt = Type.Object(
  {
    date: Type.String({ description: 'The attempt’s day (dataLiquidacao), YYYY-MM-DD.' }),
    outcome: Type.Enum(['paid', 'failed'], { description: 'paid or failed.' }),
    ...Rejection,
  },
  { description: 'One payment attempt of the cycle, as it ended.' },
);

/** One cycle, as the subscription and the cycle events show it. */
export const Cycle = Type.Object(
  {
    subscription_id: doc(Uuid, 'The subscription the cycle belongs to.'),
    sequence: Type.Integer({ description: 'The cycle’s number, 1 for the start date.' }),
    due_date: Type.String({ description: 'The cycle’s due date.' }),
    amount_minor: Type.String({
      description:
        'What the cycle charges, in centavos: the fixed amount, the floor or the amount set for it.',
    }),
    status: Type.Enum(CYCLE_STATUSES, {
      description: 'scheduled, retrying, paid, failed, cancelled or skipped.',
    }),
    payment_id: Nullable(doc(Uuid, 'The cycle’s payment (kind pix_automatic).')),
    attempts: Type.Integer({ description: 'Payment attempts made.' }),
    next_attempt_date: Nullable(Type.String({ description: 'Day of the next attempt.' })),
    attempt_history: Type.Array(Attempt, { description: 'Each attempt that ended, oldest first.' }),
    last_failure: Nullable(
      Type.Object(Rejection, {
        description: 'The last failed attempt’s rejection, as attempt_history has it; null when none failed.',
      }),
    ),
  },
  { description: 'One cycle of a subscription: a charge (cobr) and its payment.' },
);
export type CycleView = Static<typeof Cycle>;

export const CYCLE_EXAMPLE: CycleView = {
  subscription_id: '01930000-0000-7000-8000-000000000001',
  sequence: 1,
  due_date: '2027-01-10',
  amount_minor: '4990',
  status: 'retrying',
  payment_id: '01930000-0000-7000-8000-000000000004',
  attempts: 1,
  next_attempt_date: '2027-01-12',
  attempt_history: [
    {
      date: '2027-01-10',
      outcome: 'failed',
      rejection_code: 'AM02',
      rejection_reason: 'Valor não permitido',
    },
  ],
  last_failure: { rejection_code: 'AM02', rejection_reason: 'Valor não permitido' },
};

export const Subscription = Type.Object(
  {
    id: doc(Uuid, 'The subscription’s id.'),
    workspace_id: doc(Uuid, 'The workspace it belongs to.'),
    environment: EnvironmentName,
    party_id: doc(Uuid, 'The party credited with each paid cycle.'),
    status: Type.Enum(SUBSCRIPTION_STATUSES, {
      description:
        'pending_authorisation → active → cancelled, expired or completed; refused when the payer declines.',
    }),
    debtor: Type.Object(
      {
        name: Type.String({ description: 'The payer’s name.' }),
        document: Type.String({
          description: 'The payer’s CPF or CNPJ, all but its last two characters hidden.',
        }),
        document_type: Type.Enum(['cpf', 'cnpj'], { description: 'cpf or cnpj.' }),
      },
      { description: 'Who pays.' },
    ),
    amount_minor: Nullable(Type.String({ description: 'Fixed amount of each cycle; null when variable.' })),
    minimum_minor: Nullable(Type.String({ description: 'Floor of a variable amount; null when fixed.' })),
    currency: Type.Literal('BRL', { description: 'Always BRL.' }),
    frequency: Type.Enum(FREQUENCIES, { description: 'How often a cycle falls due.' }),
    start_date: Type.String({ description: 'Due date of the first cycle.' }),
    end_date: Nullable(Type.String({ description: 'Last day a cycle may fall due; null: until cancelled.' })),
    retry_policy: Type.Enum(['none', 'three_in_seven_days'], {
      description: 'Retries after a failed payment.',
    }),
    description: Nullable(Type.String({ description: 'What the payments are for.' })),
    cancelled_by: Nullable(
      Type.Enum(['receiver', 'payer'], {
        description: 'Who cancelled it, when cancelled: you, or the payer at their PSP.',
      }),
    ),
    next_due_date: Nullable(
      Type.String({ description: 'Due date of the next cycle not yet charged; null once ended.' }),
    ),
    cycles_paid: Type.Integer({ description: 'Cycles paid so far.' }),
    next_amount_minor: Nullable(
      Type.String({
        description:
          'Variable amount: what the next cycle charged will charge, as set with POST …/cycles/next; null: the floor (or the fixed amount).',
      }),
    ),
    payer_maximum_minor: Nullable(
      Type.String({
        description:
          'The most the payer authorised per cycle, when their PSP reports it (not carried by the API Pix v2.9.0: usually null).',
      }),
    ),
    metadata: Metadata,
    authorised_at: Nullable(doc(Timestamp, 'When the payer authorised it.')),
    created_at: doc(Timestamp, 'When it was created.'),
    updated_at: doc(Timestamp, 'When its status last changed.'),
  },
  {
    description: 'A Pix Automático subscription (a recurrence, BCB API Pix /rec).',
    examples: [
      {
        id: '01930000-0000-7000-8000-000000000001',
        workspace_id: '01930000-0000-7000-8000-000000000002',
        environment: 'sandbox',
        party_id: '01930000-0000-7000-8000-000000000003',
        status: 'active',
        debtor: { name: 'Fulano de Tal', document: '*********25', document_type: 'cpf' },
        amount_minor: '3500',
        minimum_minor: null,
        currency: 'BRL',
        frequency: 'monthly',
        start_date: '2027-01-10',
        end_date: null,
        retry_policy: 'three_in_seven_days',
        description: 'Streaming mensal',
        cancelled_by: null,
        next_due_date: '2027-02-10',
        cycles_paid: 1,
        next_amount_minor: null,
        payer_maximum_minor: null,
        metadata: {},
        authorised_at: '2027-01-02T12:00:00.000Z',
        created_at: '2027-01-01T12:00:00.000Z',
        updated_at: '2027-01-02T12:00:00.000Z',
      },
    ],
  },
);
export type SubscriptionView = Static<typeof Subscription>;

export const SubscriptionListQuery = Type.Object(
  {
    ...PageQuery(),
    party_id: Type.Optional(doc(Uuid, 'Only this party’s subscriptions.')),
    status: Type.Optional(
      Type.Enum(SUBSCRIPTION_STATUSES, { description: 'Only subscriptions in this status.' }),
    ),
  },
  { description: 'limit (1..100), cursor (the id of the last subscription seen), party_id, status.' },
);
export type SubscriptionListRequest = Static<typeof SubscriptionListQuery>;

export const AuthoriseBody = Type.Object(
  {
    approve: Type.Boolean({
      description: 'true: the payer authorises (APROVADA); false: declines (REJEITADA).',
    }),
  },
  { description: 'The payer’s answer, as their PSP would give it.', examples: [{ approve: true }] },
);
export type AuthoriseRequest = Static<typeof AuthoriseBody>;

export const FailPaymentsBody = Type.Object(
  {
    attempts: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 4,
        description: 'How many of the next payment attempts fail (default 1).',
      }),
    ),
  },
  { description: 'Makes the payer’s next payment attempts fail (no funds).', examples: [{ attempts: 1 }] },
);
export type FailPaymentsRequest = Static<typeof FailPaymentsBody>;

export const NextCycleBody = Type.Object(
  {
    amount_minor: doc(
      AmountMinor,
      'What the next cycle charges, in centavos: at or above minimum_minor (valorMinimoRecebedor) and at or below the payer’s maximum when known.',
    ),
  },
  {
    description: 'The amount of the next cycle of a variable-amount subscription.',
    examples: [{ amount_minor: '4990' }],
  },
);
export type NextCycleRequest = Static<typeof NextCycleBody>;
