import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import {
  doc,
  EnvironmentName,
  EnvParams,
  Metadata,
  MetadataBody,
  Name as NamedString,
  Nullable,
  Timestamp,
  Uuid,
} from '../../platform/schema.ts';
import { DOCUMENT_TYPES } from './documents.ts';

export const CUSTOMER_KINDS = ['person', 'business'] as const;
export const CUSTOMER_STATUSES = ['active', 'blocked'] as const;
export const KYC_STATUSES = ['not_started', 'pending', 'in_review', 'approved', 'rejected'] as const;
export const CASE_STATUSES = ['pending', 'in_review', 'approved', 'rejected'] as const;
export const RFI_STATUSES = ['open', 'answered', 'closed'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export type KycStatus = (typeof KYC_STATUSES)[number];
export type CaseStatus = (typeof CASE_STATUSES)[number];

const Text = (description: string) => Nullable(Type.String(), { description });
const Name = NamedString(200, { description: 'The name, 1 to 200 characters.' });
const Email = Type.String({ format: 'email', maxLength: 254, description: 'An e-mail address.' });
const Phone = Type.String({
  pattern: '^\\+?[0-9 ()-]{8,20}$',
  maxLength: 20,
  description: 'A phone number, e.g. +55 11 91234-5678.',
});
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });
const ExternalId = Type.String({ minLength: 1, maxLength: 128, description: 'Your own id of the customer.' });
const DocumentTypeSchema = Type.Enum(DOCUMENT_TYPES, { description: 'cpf or cnpj' });

/** The spec's Customer resource, every field. kyc_status is the one of the environment asked on. */
export const Customer = Type.Object({
  id: doc(Uuid, 'The customer id: a party id, usable as party_id.'),
  workspace_id: doc(Uuid, 'The workspace the customer belongs to.'),
  kind: Type.Enum(CUSTOMER_KINDS, { description: 'person or business.' }),
  display_name: Type.String({ description: 'The name shown for the customer.' }),
  legal_name: Text('The registered legal name.'),
  document_type: Nullable(DocumentTypeSchema),
  document_number: Text('The CPF or CNPJ, digits only.'),
  email: Text('An e-mail address.'),
  phone: Text('A phone number.'),
  country: Text('ISO 3166-1 alpha-2.'),
  status: Type.Enum(CUSTOMER_STATUSES, { description: 'active, or blocked: its money cannot move' }),
  kyc_status: Type.Enum(KYC_STATUSES, {
    description: 'of the environment in the path: not_started, pending, in_review, approved, rejected',
  }),
  external_id: Text('Your own id of the customer.'),
  payout_mode: Text('Reserved: how the customer is paid out.'),
  payout_asset: Text('Reserved: the asset the customer is paid out in.'),
  payout_wallet_address: Text('Reserved: the address the customer is paid out to.'),
  payout_wallet_network: Text('Reserved: the network of payout_wallet_address.'),
  metadata: Metadata,
  created_at: doc(Timestamp, 'When the customer was created.'),
  updated_at: doc(Timestamp, 'When the customer last changed.'),
});

export const CUSTOMER_EXAMPLE = {
  id: '0194f450-c13d-7e4f-9a5b-6c7d8e9f0a1b',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  kind: 'person',
  display_name: 'Maria Silva',
  legal_name: 'Maria da Silva',
  document_type: 'cpf',
  document_number: '52998224725',
  email: 'maria@example.com',
  phone: '+55 11 91234-5678',
  country: 'BR',
  status: 'active',
  kyc_status: 'approved',
  external_id: 'cust_1001',
  payout_mode: null,
  payout_asset: null,
  payout_wallet_address: null,
  payout_wallet_network: null,
  metadata: { segment: 'retail' },
  created_at: '2026-11-21T10:00:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};
export type CustomerView = Static<typeof Customer>;

export const CustomerCreateBody = Type.Object(
  {
    kind: Type.Optional(
      Type.Enum(CUSTOMER_KINDS, { default: 'person', description: 'person (default) or business.' }),
    ),
    display_name: Name,
    legal_name: Type.Optional(Name),
    document_type: Type.Optional(DocumentTypeSchema),
    document_number: Type.Optional(
      Type.String({ minLength: 11, maxLength: 32, description: 'CPF or CNPJ, with or without its mask' }),
    ),
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    country: Type.Optional(Country),
    external_id: Type.Optional(ExternalId),
    metadata: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        kind: 'person',
        display_name: 'Maria Silva',
        document_type: 'cpf',
        document_number: '529.982.247-25',
        email: 'maria@example.com',
        external_id: 'cust_1001',
        metadata: { segment: 'retail' },
      },
    ],
  },
);
export type CustomerCreateInput = Static<typeof CustomerCreateBody>;

export const CustomerPatchBody = Type.Object(
  {
    display_name: Type.Optional(Name),
    email: Type.Optional(Nullable(Email, { description: 'A new e-mail address; null clears it.' })),
    phone: Type.Optional(Nullable(Phone, { description: 'A new phone number; null clears it.' })),
    status: Type.Optional(
      Type.Enum(CUSTOMER_STATUSES, {
        description: 'blocked stops its money from moving; active again lets it.',
      }),
    ),
    external_id: Type.Optional(Nullable(ExternalId, { description: 'Your own id; null clears it.' })),
    metadata: Type.Optional(MetadataBody),
  },
  { examples: [{ email: 'maria.silva@example.com', status: 'active' }] },
);
export type CustomerPatchInput = Static<typeof CustomerPatchBody>;

export const CustomerListQuery = Type.Object({
  ...PageQuery(),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'display or legal name, e-mail or external_id (case- and accent-insensitive), or a CPF/CNPJ in any punctuation (exact)',
    }),
  ),
  status: Type.Optional(Type.Enum(CUSTOMER_STATUSES, { description: 'Only customers in this status.' })),
});
export type CustomerListInput = Static<typeof CustomerListQuery>;

export const KycCase = Type.Object({
  id: doc(Uuid, 'The KYC case id.'),
  workspace_id: doc(Uuid, 'The workspace of the case.'),
  party_id: doc(Uuid, 'The party being checked.'),
  environment: EnvironmentName,
  status: Type.Enum(CASE_STATUSES, {
    description: 'pending; in_review while any RFI is open; approved or rejected by compliance',
  }),
  decision_reason: Text("Compliance's reason for its decision."),
  decided_at: Nullable(Timestamp, { description: 'When it was approved or rejected; null before.' }),
  created_at: doc(Timestamp, 'When the case was opened.'),
  updated_at: doc(Timestamp, 'When the case last changed.'),
});

export const KYC_CASE_EXAMPLE = {
  id: '0194f460-d24e-7f5a-8b6c-7d8e9f0a1b2c',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  party_id: '0194f450-c13d-7e4f-9a5b-6c7d8e9f0a1b',
  environment: 'sandbox',
  status: 'pending',
  decision_reason: null,
  decided_at: null,
  created_at: '2026-11-21T10:05:00.000Z',
  updated_at: '2026-11-21T10:05:00.000Z',
};
export type KycCaseView = Static<typeof KycCase>;

export const KycCreateBody = Type.Object(
  {
    party_id: Type.Optional(
      doc(Uuid, "The party to check; the key's party, else the workspace's own, when left out."),
    ),
  },
  { examples: [{ party_id: '0194f450-c13d-7e4f-9a5b-6c7d8e9f0a1b' }] },
);

export const KycListQuery = Type.Object({
  ...PageQuery(),
  party_id: Type.Optional(doc(Uuid, 'Only the cases of this party.')),
});

/** The spec's RFI item, plus when it was answered. */
export const RfiItem = Type.Object({
  id: doc(Uuid, 'The RFI item id.'),
  kyc_case_id: doc(Uuid, 'The KYC case it is about.'),
  field_name: Type.String({ description: 'What is asked for, e.g. proof_of_address.' }),
  description: Type.String({ description: 'What compliance asks, in words.' }),
  status: Type.Enum(RFI_STATUSES, { description: 'open → answered → closed (when the case is decided)' }),
  answered_at: Nullable(Timestamp, { description: 'When it was answered; null while open.' }),
  created_at: doc(Timestamp, 'When it was asked.'),
});

export const RFI_ITEM_EXAMPLE = {
  id: '0194f470-e35f-7a6b-9c7d-8e9f0a1b2c3d',
  kyc_case_id: '0194f460-d24e-7f5a-8b6c-7d8e9f0a1b2c',
  field_name: 'proof_of_address',
  description: 'Send a utility bill of the last 3 months.',
  status: 'open',
  answered_at: null,
  created_at: '2026-11-21T11:00:00.000Z',
};
export type RfiItemView = Static<typeof RfiItem>;

export const RfiCreateBody = Type.Object(
  {
    field_name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'What is asked for, e.g. proof_of_address.',
    }),
    description: Type.String({ minLength: 1, maxLength: 2000, description: 'What is asked, in words.' }),
  },
  {
    examples: [{ field_name: 'proof_of_address', description: 'Send a utility bill of the last 3 months.' }],
  },
);

export const RfiAnswerBody = Type.Object(
  {
    answer: Type.String({
      minLength: 1,
      maxLength: 10_000,
      description: 'The answer, up to 10000 characters.',
    }),
  },
  { examples: [{ answer: 'Conta de luz de outubro: https://files.example.com/conta-outubro.pdf' }] },
);

export const KycDecisionBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Why, as compliance would record it.' }),
    ),
  },
  { examples: [{ reason: 'Documents verified' }] },
);

export const KycRfiParams = Type.Object({
  env: EnvParams.properties.env,
  id: doc(Uuid, 'The KYC case id.'),
  rfi_id: doc(Uuid, 'The RFI item id.'),
});
