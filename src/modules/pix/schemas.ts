import { Type } from 'typebox';
import { AmountMinor, EnvironmentName, MetadataBody, Name, Timestamp, Uuid } from '../../platform/schema.ts';
import { PIX_KEY_TYPES } from '../../providers/pix/keys.ts';

export const PixKeyTypeSchema = Type.Enum(PIX_KEY_TYPES);

export const SettlementKey = Type.Object({
  workspace_id: Uuid,
  environment: EnvironmentName,
  pix_key: Type.String(),
  pix_key_type: PixKeyTypeSchema,
  holder_name: Type.String(),
  holder_document: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SettlementKeyBody = Type.Object({
  pix_key: Type.String({ minLength: 1, maxLength: 77 }),
  pix_key_type: Type.Optional(PixKeyTypeSchema),
  holder_name: Name(140),
  holder_document: Type.String({ minLength: 11, maxLength: 18 }),
});

const Text = (max: number) => Type.String({ maxLength: max });

export const PayoutBody = Type.Object({
  amount_minor: AmountMinor,
  currency: Type.Optional(Type.String({ maxLength: 8, default: 'BRL' })),
  pix_key: Type.Optional(
    Type.String({
      maxLength: 140,
      description:
        "Required. Must be a well-formed PIX key (CPF or CNPJ with valid check digits, e-mail, +55 phone or lower-case EVP), else 400 invalid_pix_key, whoever sends it. With a dashboard session it is the destination; with an API key the payout goes to the workspace's registered settlement key, whatever this says, and the payment's pix_key shows the settlement key.",
    }),
  ),
  payout_account_id: Type.Optional(Uuid),
  party_id: Type.Optional(Uuid),
  description: Type.Optional(Text(140)),
  receiver_name: Type.Optional(Text(140)),
  receiver_document: Type.Optional(Text(18)),
  pix_key_type: Type.Optional(PixKeyTypeSchema),
  approval_id: Type.Optional(Uuid),
  metadata: Type.Optional(MetadataBody),
});

export const ChargeBody = Type.Object({
  amount_minor: AmountMinor,
  currency: Type.Optional(Type.String({ maxLength: 8, default: 'BRL' })),
  party_id: Type.Optional(Uuid),
  description: Type.Optional(Text(140)),
  expires_in_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 604800, default: 86400 })),
  payer: Type.Optional(
    Type.Object({
      name: Name(140),
      document: Type.String({
        maxLength: 18,
        description:
          'CPF or CNPJ with valid check digits, any punctuation. Answered, listed, evented and sent by webhooks only masked to its last two characters (counterparty.document).',
      }),
    }),
  ),
  metadata: Type.Optional(MetadataBody),
});

export const RefundBody = Type.Object({
  amount_minor: Type.Optional(AmountMinor),
  description: Type.Optional(Text(140)),
});

export const SimulateCashInBody = Type.Object({
  amount_minor: AmountMinor,
  party_id: Type.Optional(Uuid),
  payer: Type.Optional(
    Type.Object({
      name: Type.Optional(Name(200)),
      document: Type.Optional(
        Type.String({
          maxLength: 32,
          description:
            'CPF or CNPJ. Answered, listed, evented and sent by webhooks only masked to its last two characters (counterparty.document).',
        }),
      ),
    }),
  ),
});

/** A PIX received on the workspace's key without a charge of ours (docs/going-live.md). */
export const UnassignedPix = Type.Object({
  id: Uuid,
  environment: EnvironmentName,
  status: Type.Enum(['unassigned', 'assigned', 'returned'], {
    description: 'unassigned until an operator assigns it to a party (credited) or returns it to the payer',
  }),
  amount_minor: Type.String({ description: 'integer minor units (BRL)' }),
  currency: Type.Literal('BRL'),
  end_to_end_id: Type.String({ description: 'end-to-end id of the PIX received' }),
  payer_info: Type.Union([Type.String(), Type.Null()], { description: "what the payer's bank sent along" }),
  payment_id: Type.Union([Uuid, Type.Null()], {
    description:
      'the completed pix_cash_in it became (assigned, or the original of the refund that returned it)',
  }),
  refund_id: Type.Union([Uuid, Type.Null()], { description: 'the pix_refund that returns it (returned)' }),
  received_at: Timestamp,
  resolved_at: Type.Union([Timestamp, Type.Null()]),
});

export const UnassignedListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Uuid),
  status: Type.Optional(Type.Enum(['unassigned', 'assigned', 'returned'])),
});

export const AssignBody = Type.Object({
  party_id: Type.Optional(Uuid),
});

export const SimulateUnassignedBody = Type.Object({
  amount_minor: AmountMinor,
  payer_info: Type.Optional(Name(140, { description: "what the payer's bank sends along" })),
});

export const SimulateMedReturnBody = Type.Object({
  amount_minor: Type.Optional(AmountMinor),
  natureza: Type.Optional(
    Type.Enum(['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'], {
      description: 'why the PSP returned it (API Pix Devolucao.natureza); MED_FRAUDE when left out',
    }),
  ),
});
