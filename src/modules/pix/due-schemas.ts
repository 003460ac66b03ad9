/**
 * Request and response shapes of PIX charges with a due date: the BCB API Pix's CobV
 * (github.com/bacen/pix-api, openapi.yaml v2.9.0, CobVSolicitada and CobVValor) in the API's own
 * terms: amounts in minor units, percentages as decimal strings, modalities by the standard's numbers.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { AmountMinor, MetadataBody, Name, Nullable, Uuid } from '../../platform/schema.ts';

const Percent = Type.String({
  pattern: '^[0-9]{1,3}\\.[0-9]{2}$',
  description: 'A percentage with two decimal places, as the standard writes valorPerc: "2.00" is 2 %.',
  examples: ['2.00'],
});
const ValueMinor = Type.String({
  pattern: '^[0-9]{1,12}$',
  description: 'A value in minor units (centavos).',
  examples: ['500'],
});
const DateText = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  description: 'A date YYYY-MM-DD in America/Sao_Paulo.',
  examples: ['2026-12-10'],
});

const part = (description: string, modalities: string) =>
  Type.Object(
    {
      modality: Type.Integer({ minimum: 1, maximum: 8, description: modalities }),
      value_minor: Type.Optional(ValueMinor),
      percent: Type.Optional(Percent),
    },
    { description },
  );

export const Fine = part(
  'Multa, charged once from the day after the due date (valor.multa).',
  '1: a fixed value (value_minor); 2: a percentage of amount_minor (percent).',
);
export const Interest = part(
  'Juros, for each calendar day late (valor.juros).',
  '1: a value per calendar day (value_minor); 2: percent per day; 3: percent per month (30 days); 4: percent per year (365 days). The business-day modalities 5–8 are refused (400 invalid_request).',
);
export const Rebate = part(
  'Abatimento, deducted whenever the charge is paid (valor.abatimento); less than the whole charge.',
  '1: a fixed value (value_minor); 2: a percentage of amount_minor (percent).',
);
export const Discount = Type.Object(
  {
    modality: Type.Integer({
      minimum: 1,
      maximum: 6,
      description:
        '1: a fixed value until each date (dates[].value_minor); 2: a percentage until each date (dates[].percent); 3: a value per calendar day paid ahead of the due date (value_minor); 5: a percentage per calendar day ahead (percent). The business-day modalities 4 and 6 are refused (400 invalid_request).',
    }),
    value_minor: Type.Optional(ValueMinor),
    percent: Type.Optional(Percent),
    dates: Type.Optional(
      Type.Array(
        Type.Object({
          date: DateText,
          value_minor: Type.Optional(ValueMinor),
          percent: Type.Optional(Percent),
        }),
        {
          minItems: 1,
          maxItems: 3,
          description:
            'Modalities 1 and 2: up to three dates on or before due_date; paid on or before a date, the entry of the earliest date not yet passed applies (descontoDataFixa).',
        },
      ),
    ),
  },
  { description: 'Desconto, only when paid on or before the due date (valor.desconto).' },
);

export const Debtor = Type.Object(
  {
    name: Name(140, { description: 'The debtor’s name (devedor.nome).' }),
    document: Type.String({
      maxLength: 18,
      description:
        'CPF or CNPJ with valid check digits, any punctuation (devedor.cpf / devedor.cnpj). Answered masked to its last two characters.',
    }),
  },
  { description: 'Who the charge is addressed to (devedor): required by the standard for a CobV.' },
);

const dueChargeFields = {
  amount_minor: { ...AmountMinor, description: 'The original amount (valor.original), in minor units.' },
  currency: Type.Optional(Type.String({ maxLength: 8, default: 'BRL', description: 'BRL only.' })),
  due_date: {
    ...DateText,
    description: 'The due date (calendario.dataDeVencimento), today or later, São Paulo.',
  },
  days_valid_after_due: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3650,
      default: 30,
      description:
        'Days after the due date it can still be paid (calendario.validadeAposVencimento); it expires at the start of the day after.',
    }),
  ),
  debtor: Debtor,
  party_id: Type.Optional({
    ...Uuid,
    description: 'The party credited; omitted: the default (or the key’s).',
  }),
  description: Type.Optional(
    Type.String({ maxLength: 140, description: 'Shown to the payer (solicitacaoPagador).' }),
  ),
  fine: Type.Optional(Fine),
  interest: Type.Optional(Interest),
  rebate: Type.Optional(Rebate),
  discount: Type.Optional(Discount),
  metadata: Type.Optional(MetadataBody),
};

const EXAMPLE_BODY = {
  amount_minor: '12345',
  due_date: '2026-12-31',
  days_valid_after_due: 30,
  debtor: { name: 'Francisco da Silva', document: '52998224725' },
  fine: { modality: 2, percent: '2.00' },
  interest: { modality: 3, percent: '1.00' },
  discount: { modality: 1, dates: [{ date: '2026-12-20', value_minor: '500' }] },
};

export const DueChargeBody = Type.Object(dueChargeFields, {
  description: 'A PIX charge with a due date (CobV).',
  examples: [EXAMPLE_BODY],
});
export type DueChargeRequest = Static<typeof DueChargeBody>;

/** Items of one batch, at most: the PSP's lote takes many more, but one request stays small. */
export const MAX_BATCH_ITEMS = 100;

export const DueChargeBatchBody = Type.Object(
  {
    description: Type.Optional(
      Type.String({ maxLength: 140, description: 'The batch’s description (lote descricao).' }),
    ),
    charges: Type.Array(Type.Object(dueChargeFields), {
      minItems: 1,
      maxItems: MAX_BATCH_ITEMS,
      description: `1 to ${MAX_BATCH_ITEMS} due-date charges, each as POST /pix/due-charges takes it.`,
    }),
  },
  { examples: [{ description: 'Mensalidades de dezembro', charges: [EXAMPLE_BODY] }] },
);
export type DueChargeBatchRequest = Static<typeof DueChargeBatchBody>;

const Parts = Type.Object(
  {
    original_minor: Type.String({ description: 'valor.original.' }),
    fine_minor: Type.String({ description: 'The fine, once late.' }),
    interest_minor: Type.String({ description: 'Interest for the days late.' }),
    rebate_minor: Type.String({ description: 'The rebate.' }),
    discount_minor: Type.String({ description: 'The discount for paying early.' }),
  },
  {
    description:
      'The parts of the amount due, as the standard’s componentesValor: total = original + fine + interest − rebate − discount.',
  },
);

export const DueCharge = Type.Object(
  {
    id: { ...Uuid, description: 'The charge’s payment id (kind pix_cash_in).' },
    status: Type.String({
      description:
        'The payment’s status: created (waiting), completed (paid), expired, refunded…; cancelled once its receiver cancelled it (PATCH status cancelled; its payment is then expired, failure_reason cancelled).',
    }),
    revision: Type.Integer({
      description: 'How many times it was revised or cancelled (the cobv’s revisao): 0 as created.',
    }),
    cancelled_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'When its receiver cancelled it; null while it stands.',
      }),
    ),
    amount_minor: Type.String({ description: 'The original amount; once paid, the amount paid.' }),
    due_date: Type.String({ description: 'calendario.dataDeVencimento.' }),
    days_valid_after_due: Type.Integer({ description: 'calendario.validadeAposVencimento.' }),
    last_payable_date: Type.String({
      description: 'due_date + days_valid_after_due: the last day it can be paid.',
    }),
    debtor: Type.Object(
      {
        name: Type.String({ description: 'devedor.nome.' }),
        document: Type.String({ description: 'Masked to its last two characters.' }),
        document_type: Type.String({ description: 'cpf or cnpj.' }),
      },
      { description: 'Who the charge is addressed to (devedor).' },
    ),
    fine: Nullable(Fine),
    interest: Nullable(Interest),
    rebate: Nullable(Rebate),
    discount: Nullable(Discount),
    today: Type.String({
      description: 'The São Paulo date the amount due is computed for (the sandbox clock’s in sandbox).',
    }),
    amount_due_today_minor: Type.String({ description: 'What paying today costs: 0 once paid or expired.' }),
    amount_due_today: Parts,
    party_id: { ...Uuid, description: 'The party credited when it is paid.' },
    currency: Type.String({ description: 'BRL.' }),
    description: Nullable(Type.String({ description: 'Shown to the payer (solicitacaoPagador).' })),
    pix_txid: Nullable(Type.String({ description: 'The txid at the PSP (the cobv’s).' })),
    pix_qr_code: Nullable(Type.String({ description: 'The BR Code (copia e cola) the payer pays.' })),
    checkout_url: Type.String({
      format: 'uri',
      description:
        'The charge’s hosted page, to send the debtor: PUBLIC_BASE_URL + /pay/due/{token}. Public and unguessable (the token is signed, not the id), it shows the amount due today part by part, the BR Code and its QR while it can be paid, and says when it is paid, expired or cancelled. pt-BR, or English by Accept-Language or ?lang=en.',
    }),
    expires_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'The start of the day after last_payable_date, São Paulo.',
      }),
    ),
    completed_at: Nullable(Type.String({ format: 'date-time', description: 'When it was paid.' })),
    created_at: Type.String({ format: 'date-time', description: 'When it was created (ISO 8601, UTC).' }),
    metadata: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Your own key-value pairs, as sent.',
    }),
  },
  { description: 'A PIX charge with a due date and what paying it today costs.' },
);
export type DueChargeResponse = Static<typeof DueCharge>;

/** A charge as the API answers it, for the document. */
export const DUE_CHARGE_EXAMPLE: DueChargeResponse = {
  id: '0b6f4c1e-2a7d-4f4e-9d7a-3c2b1a0f9e8d',
  status: 'created',
  revision: 0,
  cancelled_at: null,
  amount_minor: '12345',
  due_date: '2026-12-31',
  days_valid_after_due: 30,
  last_payable_date: '2027-01-30',
  debtor: { name: 'Francisco da Silva', document: '*********25', document_type: 'cpf' },
  fine: { modality: 2, percent: '2.00' },
  interest: { modality: 3, percent: '1.00' },
  rebate: null,
  discount: { modality: 1, dates: [{ date: '2026-12-20', value_minor: '500' }] },
  today: '2026-12-01',
  amount_due_today_minor: '11845',
  amount_due_today: {
    original_minor: '12345',
    fine_minor: '0',
    interest_minor: '0',
    rebate_minor: '0',
    discount_minor: '500',
  },
  party_id: '5d1c7a9e-0b7f-4d3e-8a61-2f4e9c0b1a23',
  currency: 'BRL',
  description: null,
  pix_txid: '0b6f4c1e2a7d4f4e9d7a3c2b1a0f9e8d',
  pix_qr_code: '00020101021226...6304ABCD',
  checkout_url:
    'https://pay.example.com/pay/due/AT-abC6B1Et6nA5dHyo7TF0Lb0weKn1PTp16PCsaD56NHqnEDQ_wWPzb8ze5ILUA',
  expires_at: '2027-01-31T03:00:00.000Z',
  completed_at: null,
  created_at: '2026-12-01T12:00:00.000Z',
  metadata: {},
};

export const DueChargeBatchResult = Type.Object(
  {
    batch_id: Nullable(Type.String({ description: 'The PSP’s lote id (live), null in sandbox.' })),
    results: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'The item’s position in the request, from 0.' }),
        charge: Nullable({
          ...DueCharge,
          description: 'The charge created for this item; null when it failed.',
        }),
        error: Nullable(
          Type.Object(
            {
              error: Type.String({ description: 'The error code the item would have got alone.' }),
              message: Type.String({ description: 'What is wrong with the item, in a sentence.' }),
              details: Type.Optional(
                Type.Array(
                  Type.Object({
                    field: Type.String({ description: 'The field at fault, as body.<field> of the item.' }),
                    issue: Type.String({ description: 'What is wrong with it.' }),
                  }),
                  { description: 'One entry per field at fault.' },
                ),
              ),
            },
            { description: 'Why this item was not created (nothing was written for it); null when it was.' },
          ),
        ),
      }),
      { description: 'One entry per item, in order: its charge, or its error (and nothing written for it).' },
    ),
  },
  { description: 'Each item’s result, in order.' },
);
export type DueChargeBatchResponse = Static<typeof DueChargeBatchResult>;

export const DUE_CHARGE_BATCH_EXAMPLE: DueChargeBatchResponse = {
  batch_id: null,
  results: [
    { index: 0, charge: DUE_CHARGE_EXAMPLE, error: null },
    {
      index: 1,
      charge: null,
      error: {
        error: 'invalid_request',
        message:
          'The due-date charge is not valid: body.interest.modality modality 6 counts business days, which this service does not offer.',
        details: [
          {
            field: 'body.interest.modality',
            issue: 'modality 6 counts business days, which this service does not offer',
          },
        ],
      },
    },
  ],
};

/** A term revised: its new shape, or null to remove it. */
const revisedTerm = <T extends TSchema>(schema: T, name: string) =>
  Type.Optional(Nullable(schema, { description: `The new ${name}, checked as on create; null removes it.` }));

export const DueChargePatchBody = Type.Object(
  {
    amount_minor: Type.Optional({
      ...AmountMinor,
      description: 'The new original amount (valor.original), in minor units.',
    }),
    due_date: Type.Optional({
      ...DateText,
      description: 'The new due date (calendario.dataDeVencimento), today or later, São Paulo.',
    }),
    days_valid_after_due: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3650,
        description:
          'The new number of days it can be paid after the due date (calendario.validadeAposVencimento).',
      }),
    ),
    debtor: Type.Optional(Debtor),
    fine: revisedTerm(Fine, 'fine (valor.multa)'),
    interest: revisedTerm(Interest, 'interest (valor.juros)'),
    rebate: revisedTerm(Rebate, 'rebate (valor.abatimento)'),
    discount: revisedTerm(Discount, 'discount (valor.desconto)'),
    status: Type.Optional(
      Type.Literal('cancelled', {
        description:
          'cancelled cancels the charge (cobv status REMOVIDA_PELO_USUARIO_RECEBEDOR): sent alone, with no other field.',
      }),
    ),
  },
  {
    description:
      'What to change of a waiting charge: only the fields sent change, each checked as on create against the charge as it would stand; or status cancelled alone. An empty body is 400 invalid_request.',
    examples: [{ amount_minor: '15000', due_date: '2027-01-10', fine: null }, { status: 'cancelled' }],
  },
);
export type DueChargePatchRequest = Static<typeof DueChargePatchBody>;

export const DUE_CHARGE_STATUSES = ['created', 'completed', 'expired', 'refunded', 'cancelled'] as const;

export const DueChargeListQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(
    Type.Union(
      DUE_CHARGE_STATUSES.map((status) => Type.Literal(status)),
      {
        description:
          'Only charges of this status: created (waiting), completed (paid), expired (unpaid past its last day), refunded, cancelled.',
      },
    ),
  ),
  due_date_from: Type.Optional({
    ...DateText,
    description: 'Only charges due on or after this date (São Paulo).',
  }),
  due_date_to: Type.Optional({
    ...DateText,
    description: 'Only charges due before this date (exclusive, as every list’s to).',
  }),
  party_id: Type.Optional({
    ...Uuid,
    description: 'Only the charges credited to this party (a party-scoped key sees its own party’s only).',
  }),
});
export type DueChargeListRequest = Static<typeof DueChargeListQuery>;
