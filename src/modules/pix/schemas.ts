import { Type } from 'typebox';
import {
  AmountMinor,
  doc,
  EnvironmentName,
  MetadataBody,
  Name,
  Timestamp,
  Uuid,
} from '../../platform/schema.ts';
import { PIX_KEY_TYPES } from '../../providers/pix/keys.ts';

export const PixKeyTypeSchema = Type.Enum(PIX_KEY_TYPES, {
  description: 'The kind of PIX key: cpf, cnpj, email, phone or evp.',
});

export const SettlementKey = Type.Object({
  workspace_id: doc(Uuid, 'The workspace whose payouts go to this key.'),
  environment: EnvironmentName,
  pix_key: Type.String({ description: 'The PIX key every payout made with an API key is paid to.' }),
  pix_key_type: PixKeyTypeSchema,
  holder_name: Type.String({ description: "The key holder's name, as the bank knows it." }),
  holder_document: Type.String({ description: "The holder's CPF or CNPJ, digits only." }),
  created_at: doc(Timestamp, 'When the key was first registered.'),
  updated_at: doc(Timestamp, 'When the key was last replaced.'),
});

export const SETTLEMENT_KEY_EXAMPLE = {
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  pix_key: 'tesouraria@acme.com.br',
  pix_key_type: 'email',
  holder_name: 'Acme Pagamentos Ltda',
  holder_document: '11222333000181',
  created_at: '2026-11-20T12:00:00.000Z',
  updated_at: '2026-11-20T12:00:00.000Z',
};

export const SettlementKeyBody = Type.Object(
  {
    pix_key: Type.String({ minLength: 1, maxLength: 77, description: 'The PIX key of your own company.' }),
    pix_key_type: Type.Optional(
      doc(PixKeyTypeSchema, 'The kind of key; inferred from the key when left out.'),
    ),
    holder_name: Name(140, { description: "The key holder's name." }),
    holder_document: Type.String({
      minLength: 11,
      maxLength: 18,
      description: "The holder's CPF or CNPJ, with valid check digits; punctuation allowed.",
    }),
  },
  {
    examples: [
      {
        pix_key: 'tesouraria@acme.com.br',
        holder_name: 'Acme Pagamentos Ltda',
        holder_document: '11.222.333/0001-81',
      },
    ],
  },
);

const Text = (max: number, description: string) => Type.String({ maxLength: max, description });
const Currency = Type.String({
  maxLength: 8,
  default: 'BRL',
  description: 'BRL, the only currency PIX moves.',
});

export const PayoutBody = Type.Object(
  {
    amount_minor: AmountMinor,
    currency: Type.Optional(Currency),
    pix_key: Type.Optional(
      Type.String({
        maxLength: 140,
        description:
          "Required. Must be a well-formed PIX key (CPF or CNPJ with valid check digits, e-mail, +55 phone or lower-case EVP), else 400 invalid_pix_key, whoever sends it. With a dashboard session it is the destination; with an API key the payout goes to the workspace's registered settlement key, whatever this says, and the payment's pix_key shows the settlement key.",
      }),
    ),
    payout_account_id: Type.Optional(
      doc(Uuid, 'Reserved: the payout account to pay to, instead of pix_key.'),
    ),
    party_id: Type.Optional(doc(Uuid, "The party whose balance pays; the workspace's own when left out.")),
    description: Type.Optional(Text(140, 'Your text about the payout, sent with the transfer.')),
    receiver_name: Type.Optional(Text(140, "The receiver's name, checked against the key's holder.")),
    receiver_document: Type.Optional(Text(18, "The receiver's CPF or CNPJ.")),
    pix_key_type: Type.Optional(
      doc(PixKeyTypeSchema, 'The kind of key; inferred from the key when left out.'),
    ),
    approval_id: Type.Optional(doc(Uuid, 'Reserved: an approval of this payout.')),
    metadata: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        amount_minor: '2500',
        pix_key: '52998224725',
        description: 'Saque 42',
        metadata: { withdrawal_id: '42' },
      },
    ],
  },
);

export const ChargeBody = Type.Object(
  {
    amount_minor: AmountMinor,
    currency: Type.Optional(Currency),
    party_id: Type.Optional(doc(Uuid, "The party credited when paid; the workspace's own when left out.")),
    description: Type.Optional(Text(140, 'Shown to the payer in their bank app.')),
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 604800,
        default: 86400,
        description: 'Seconds until an unpaid charge expires: 60 to 604800 (7 days).',
      }),
    ),
    payer: Type.Optional(
      Type.Object(
        {
          name: Name(140, { description: "The payer's name." }),
          document: Type.String({
            maxLength: 18,
            description:
              'CPF or CNPJ with valid check digits, any punctuation. Answered, listed, evented and sent by webhooks only masked to its last two characters (counterparty.document).',
          }),
        },
        { description: 'Who is expected to pay; the bank checks it when given.' },
      ),
    ),
    metadata: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        amount_minor: '15000',
        description: 'Pedido 1001',
        expires_in_seconds: 3600,
        payer: { name: 'Maria Silva', document: '529.982.247-25' },
        metadata: { order_id: '1001' },
      },
    ],
  },
);

export const RefundBody = Type.Object(
  {
    amount_minor: Type.Optional(
      doc(AmountMinor, 'How much to return, in minor units; the whole remainder when left out.'),
    ),
    description: Type.Optional(Text(140, 'Your text about the refund, sent with the transfer.')),
  },
  { examples: [{ amount_minor: '5000', description: 'Item devolvido' }] },
);

export const SimulateCashInBody = Type.Object(
  {
    amount_minor: AmountMinor,
    party_id: Type.Optional(doc(Uuid, "The party credited; the workspace's own when left out.")),
    payer: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Name(200, { description: "The payer's name." })),
          document: Type.Optional(
            Type.String({
              maxLength: 32,
              description:
                'CPF or CNPJ. Answered, listed, evented and sent by webhooks only masked to its last two characters (counterparty.document).',
            }),
          ),
        },
        { description: 'Who paid, as their bank would tell.' },
      ),
    ),
  },
  { examples: [{ amount_minor: '10000', payer: { name: 'Maria Silva', document: '52998224725' } }] },
);

/** A PIX received on the workspace's key without a charge of ours (docs/going-live.md). */
export const UnassignedPix = Type.Object({
  id: doc(Uuid, 'The id of the received PIX.'),
  environment: EnvironmentName,
  status: Type.Enum(['unassigned', 'assigned', 'returned'], {
    description: 'unassigned until an operator assigns it to a party (credited) or returns it to the payer',
  }),
  amount_minor: Type.String({ description: 'integer minor units (BRL)' }),
  currency: Type.Literal('BRL', { description: 'Always BRL.' }),
  end_to_end_id: Type.String({ description: 'end-to-end id of the PIX received' }),
  payer_info: Type.Union([Type.String(), Type.Null()], { description: "what the payer's bank sent along" }),
  payment_id: Type.Union([Uuid, Type.Null()], {
    description:
      'the completed pix_cash_in it became (assigned, or the original of the refund that returned it)',
  }),
  refund_id: Type.Union([Uuid, Type.Null()], { description: 'the pix_refund that returns it (returned)' }),
  received_at: doc(Timestamp, 'When the PIX arrived.'),
  resolved_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When it was assigned or returned; null before.',
  }),
});

export const UNASSIGNED_PIX_EXAMPLE = {
  id: '0194f4b0-279d-7eaf-9b1c-2d3e4f5a6b7c',
  environment: 'sandbox',
  status: 'unassigned',
  amount_minor: '4200',
  currency: 'BRL',
  end_to_end_id: 'E12345678202611260310abcdef67890',
  payer_info: 'Maria Silva 52998224725',
  payment_id: null,
  refund_id: null,
  received_at: '2026-11-26T03:10:00.000Z',
  resolved_at: null,
};

export const UnassignedListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'How many to answer, 1 to 100.' }),
  ),
  cursor: Type.Optional(doc(Uuid, 'The id of the last item of the previous page: the page after it.')),
  status: Type.Optional(
    Type.Enum(['unassigned', 'assigned', 'returned'], { description: 'Only those in this status.' }),
  ),
});

export const AssignBody = Type.Object(
  { party_id: Type.Optional(doc(Uuid, "The party credited; the workspace's own when left out.")) },
  { examples: [{ party_id: '0194f3a0-5b6c-7d8e-9f0a-1b2c3d4e5f60' }] },
);

export const SimulateUnassignedBody = Type.Object(
  {
    amount_minor: AmountMinor,
    payer_info: Type.Optional(Name(140, { description: "what the payer's bank sends along" })),
  },
  { examples: [{ amount_minor: '4200', payer_info: 'Maria Silva 52998224725' }] },
);

export const SimulateMedReturnBody = Type.Object(
  {
    amount_minor: Type.Optional(
      doc(AmountMinor, 'How much the PSP returns, in minor units; the whole cash-in when left out.'),
    ),
    natureza: Type.Optional(
      Type.Enum(['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'], {
        description: 'why the PSP returned it (API Pix Devolucao.natureza); MED_FRAUDE when left out',
      }),
    ),
  },
  { examples: [{ amount_minor: '5000', natureza: 'MED_FRAUDE' }] },
);
