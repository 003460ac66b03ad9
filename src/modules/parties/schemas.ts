import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import {
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

const Text = Nullable(Type.String());
const Name = NamedString(200);
const Email = Type.String({ format: 'email', maxLength: 254 });
const Phone = Type.String({ pattern: '^\\+?[0-9 ()-]{8,20}$', maxLength: 20 });
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });
const ExternalId = Type.String({ minLength: 1, maxLength: 128 });
const DocumentTypeSchema = Type.Enum(DOCUMENT_TYPES, { description: 'cpf or cnpj' });

/** The spec's Customer resource, every field. kyc_status is the one of the environment asked on. */
export const Customer = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  kind: Type.Enum(CUSTOMER_KINDS),
  display_name: Type.String(),
  legal_name: Text,
  document_type: Nullable(DocumentTypeSchema),
  document_number: Text,
  email: Text,
  phone: Text,
  country: Text,
  status: Type.Enum(CUSTOMER_STATUSES, { description: 'active, or blocked: its money cannot move' }),
  kyc_status: Type.Enum(KYC_STATUSES, {
    description: 'of the environment in the path: not_started, pending, in_review, approved, rejected',
  }),
  external_id: Text,
  payout_mode: Text,
  payout_asset: Text,
  payout_wallet_address: Text,
  payout_wallet_network: Text,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CustomerView = Static<typeof Customer>;

export const CustomerCreateBody = Type.Object({
  kind: Type.Optional(Type.Enum(CUSTOMER_KINDS, { default: 'person' })),
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
});
export type CustomerCreateInput = Static<typeof CustomerCreateBody>;

export const CustomerPatchBody = Type.Object({
  display_name: Type.Optional(Name),
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Phone)),
  status: Type.Optional(Type.Enum(CUSTOMER_STATUSES)),
  external_id: Type.Optional(Nullable(ExternalId)),
  metadata: Type.Optional(MetadataBody),
});
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
  status: Type.Optional(Type.Enum(CUSTOMER_STATUSES)),
});
export type CustomerListInput = Static<typeof CustomerListQuery>;

export const KycCase = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  party_id: Uuid,
  environment: EnvironmentName,
  status: Type.Enum(CASE_STATUSES, {
    description: 'pending; in_review while any RFI is open; approved or rejected by compliance',
  }),
  decision_reason: Text,
  decided_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type KycCaseView = Static<typeof KycCase>;

export const KycCreateBody = Type.Object({
  party_id: Type.Optional(Uuid),
});

export const KycListQuery = Type.Object({
  ...PageQuery(),
  party_id: Type.Optional(Uuid),
});

/** The spec's RFI item, plus when it was answered. */
export const RfiItem = Type.Object({
  id: Uuid,
  kyc_case_id: Uuid,
  field_name: Type.String(),
  description: Type.String(),
  status: Type.Enum(RFI_STATUSES, { description: 'open → answered → closed (when the case is decided)' }),
  answered_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type RfiItemView = Static<typeof RfiItem>;

export const RfiCreateBody = Type.Object({
  field_name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.String({ minLength: 1, maxLength: 2000 }),
});

export const RfiAnswerBody = Type.Object({
  answer: Type.String({ minLength: 1, maxLength: 10_000 }),
});

export const KycDecisionBody = Type.Object({
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

export const KycRfiParams = Type.Object({
  env: EnvParams.properties.env,
  id: Uuid,
  rfi_id: Uuid,
});
