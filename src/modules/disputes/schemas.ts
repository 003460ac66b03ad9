import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { AmountMinor, EnvironmentName, Nullable, Timestamp } from '../../platform/schema.ts';

export const DISPUTE_STATUSES = ['open', 'under_review', 'closed_returned', 'closed_rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
/** The deadline notices, in hours before the deadline, each sent once while the dispute is open. */
export const DEADLINE_NOTICES = ['48h', '24h', '6h'] as const;
export type DeadlineNotice = (typeof DEADLINE_NOTICES)[number];

/** Bounds of a defense: the PSP takes one text (Efí `justificativa`); evidence is referenced, not uploaded. */
export const DEFENSE_LIMITS = { textLength: 5000, evidence: 10, referenceLength: 2048 } as const;

const ISO_EXAMPLE = '2026-11-26T12:00:00.000Z';
const DISPUTE_ID = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const PAYMENT_ID = '0193a1b2-0000-7e5f-8a9b-0c1d2e3f4a5b';

/** A dispute as the API shows it: the example of its schema and of the routes' answers. */
export const DISPUTE_EXAMPLE = {
  id: DISPUTE_ID,
  environment: 'sandbox',
  payment_id: PAYMENT_ID,
  party_id: '0193a1b2-1111-7e5f-8a9b-0c1d2e3f4a5b',
  status: 'open',
  reason: 'golpe',
  infraction_id: 'sbx_inf_Q2x8LrT0aV',
  amount_minor: '10000',
  currency: 'BRL',
  held_minor: '10000',
  unheld_minor: '0',
  opened_at: ISO_EXAMPLE,
  deadline_at: '2026-11-29T12:00:00.000Z',
  defense: null,
  closed_at: null,
  return_payment_id: null,
  deadline_notices_sent: [],
  created_at: ISO_EXAMPLE,
  updated_at: ISO_EXAMPLE,
};

export const DisputeStatusSchema = Type.Enum([...DISPUTE_STATUSES], {
  description:
    'open (the amount is held, a defense may be sent until deadline_at), under_review (defense sent, the PSP decides), closed_returned (the money went back to the payer), closed_rejected (the hold was released)',
});

/** A reference to a piece of evidence: an https URL or the id of a file the merchant keeps. */
export const EvidenceReference = Type.String({
  minLength: 1,
  maxLength: DEFENSE_LIMITS.referenceLength,
  pattern: '^(https://[^\\s]+|[A-Za-z0-9][A-Za-z0-9_.:-]{0,127})$',
  description: `An https:// URL (at most ${DEFENSE_LIMITS.referenceLength} characters) or a file id (letters, digits, _ . : -, at most 128)`,
  examples: ['https://files.acme.com.br/pedido-7/nota-fiscal.pdf'],
});

export const Defense = Type.Object(
  {
    text: Type.String({ description: 'The defense as sent to the PSP' }),
    evidence: Type.Array(Type.String(), { description: 'References to the evidence (URLs or file ids)' }),
    submitted_at: Type.String({ format: 'date-time', description: 'When the defense was recorded' }),
  },
  { description: 'The defense sent, or null while none was' },
);

export const Dispute = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The dispute id' }),
    environment: EnvironmentName,
    payment_id: Type.String({ format: 'uuid', description: 'The disputed PIX cash-in (kind pix_cash_in)' }),
    party_id: Type.String({
      format: 'uuid',
      description: 'The party the cash-in credited, whose balance holds the amount',
    }),
    status: DisputeStatusSchema,
    reason: Type.String({ description: "Why the payer's bank opened the infraction, as the PSP reports it" }),
    infraction_id: Type.String({ description: "The PSP's id of the infraction notice (Efí idInfracao)" }),
    amount_minor: Type.String({ description: 'The disputed amount, BRL minor units' }),
    currency: Type.Literal('BRL', { description: 'Always BRL: PIX moves reais' }),
    held_minor: Type.String({
      description:
        'What the dispute holds in the party’s locked BRL: what available had when it opened, topped up as money comes in, up to amount_minor',
    }),
    unheld_minor: Type.String({
      description:
        'The part of the amount nothing holds yet (amount_minor − held_minor): the next credits to the party are held for it; a return takes what is still unheld as a debt of the party',
    }),
    opened_at: Type.String({ format: 'date-time', description: 'When the infraction was opened' }),
    deadline_at: Type.String({
      format: 'date-time',
      description: 'The last moment a defense is taken (the PSP’s, else opened_at + 3 days)',
    }),
    defense: Nullable(Defense),
    closed_at: Nullable(Type.String({ format: 'date-time', description: 'When the dispute closed' })),
    return_payment_id: Nullable(
      Type.String({
        format: 'uuid',
        description: 'The pix_med_return payment of a return, when it closed returned',
      }),
    ),
    deadline_notices_sent: Type.Array(Type.Enum([...DEADLINE_NOTICES]), {
      description: 'The dispute.deadline_approaching notices sent so far (48h, 24h, 6h before deadline_at)',
    }),
    created_at: Type.String({ format: 'date-time', description: 'When Lastro recorded the dispute' }),
    updated_at: Type.String({ format: 'date-time', description: 'Its last change' }),
  },
  {
    description: 'A MED infraction on a PIX cash-in: the disputed amount, its hold and the defense',
    examples: [DISPUTE_EXAMPLE],
  },
);
export type DisputeView = Static<typeof Dispute>;

export const DisputeListQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(DisputeStatusSchema),
  party_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the disputes of this party' })),
  payment_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only the disputes of this payment' }),
  ),
});

export const DefenseBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: DEFENSE_LIMITS.textLength,
      pattern: '\\S',
      description: `Why the PIX was legitimate, as the PSP will read it (1 to ${DEFENSE_LIMITS.textLength} characters)`,
    }),
    evidence: Type.Optional(
      Type.Array(EvidenceReference, {
        maxItems: DEFENSE_LIMITS.evidence,
        description: `At most ${DEFENSE_LIMITS.evidence} references to evidence: URLs or file ids`,
      }),
    ),
  },
  {
    examples: [
      {
        text: 'The buyer received order 7 on 2026-11-20; the invoice and the delivery receipt are attached.',
        evidence: ['https://files.acme.com.br/pedido-7/nota-fiscal.pdf', 'file_7Qx2'],
      },
    ],
  },
);
export type DefenseInput = Static<typeof DefenseBody>;

export const SimulateDisputeBody = Type.Object(
  {
    amount_minor: Type.Optional(
      Type.Unsafe<string>({
        ...AmountMinor,
        description: 'The disputed amount; the whole cash-in when left out',
      }),
    ),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '\\S',
        description: 'The infraction’s reason; golpe when left out',
      }),
    ),
    deadline_at: Type.Optional(
      Type.Unsafe<string>({
        ...Timestamp,
        description: 'The defense deadline the PSP gives; opened_at + 3 days when left out',
      }),
    ),
  },
  { examples: [{ amount_minor: '10000', reason: 'golpe' }] },
);

export const SimulateCloseBody = Type.Object(
  {
    outcome: Type.Enum(['returned', 'rejected'], {
      description: 'returned: the money goes back to the payer (MED return); rejected: the hold is released',
    }),
  },
  { examples: [{ outcome: 'rejected' }] },
);
export type CloseOutcome = Static<typeof SimulateCloseBody>['outcome'];
