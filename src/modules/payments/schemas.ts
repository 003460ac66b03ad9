import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { PAYMENT_KINDS } from '../../platform/rails.ts';
import { EnvironmentName, Metadata, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

/** Payment kinds of API.md, each declared by its rail. */
export { PAYMENT_KINDS, type PaymentKind } from '../../platform/rails.ts';

/** Payment statuses of API.md. */
export const PAYMENT_STATUSES = [
  'created',
  'processing',
  'completed',
  'failed',
  'expired',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PaymentKindSchema = Type.Enum(PAYMENT_KINDS, { description: 'kind of operation' });
export const PaymentStatusSchema = Type.Enum(PAYMENT_STATUSES, {
  description:
    'created → processing → completed | failed; a charge not paid in time → expired; a refunded cash-in → refunded',
});

const Text = Nullable(Type.String());

/** The spec's Payment resource: every field, amounts as strings of minor units, null where unset. */
export const Payment = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  party_id: Uuid,
  environment: EnvironmentName,
  kind: PaymentKindSchema,
  status: PaymentStatusSchema,
  amount_minor: Type.String({ description: 'integer minor units' }),
  currency: Type.String(),
  fee_minor: Type.String({ description: 'integer minor units' }),
  description: Text,
  provider_ref: Text,
  pix_qr_code: Text,
  pix_tx_id: Nullable(Type.String({ description: 'end-to-end id of the settled PIX transfer' })),
  pix_txid: Nullable(Type.String({ description: 'txid of the charge (BR Code field 62-05)' })),
  pix_key: Text,
  to_address: Text,
  from_address: Text,
  network: Text,
  tx_hash: Text,
  failure_reason: Text,
  metadata: Metadata,
  idempotency_key: Text,
  counterparty: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Who is on the other side: payer or receiver name, PIX key, address. A CPF/CNPJ in `document` is always masked to its last two characters (`*********25`), here, in events and in webhooks.',
    }),
  ),
  wallet_id: Nullable(Uuid),
  source_currency: Text,
  target_currency: Text,
  exchange_rate: Nullable(Type.String({ description: 'decimal string' })),
  quote_id: Nullable(Uuid),
  related_payment_id: Nullable(Uuid),
  expires_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
  failed_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type PaymentView = Static<typeof Payment>;

export const PaymentListQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(PaymentStatusSchema),
  kind: Type.Optional(PaymentKindSchema),
  party_id: Type.Optional(Uuid),
});
