import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { PAYMENT_KINDS } from '../../platform/rails.ts';
import { doc, EnvironmentName, Metadata, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';

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

const Text = (description: string) => Nullable(Type.String({ description }));
const At = (description: string) => Nullable(Type.String({ format: 'date-time', description }));

/** The spec's Payment resource: every field, amounts as strings of minor units, null where unset. */
export const Payment = Type.Object({
  id: doc(Uuid, 'The payment id.'),
  workspace_id: doc(Uuid, 'The workspace (or sub-account) the payment belongs to.'),
  party_id: doc(Uuid, 'The party whose balance the payment moves: the workspace itself or a customer.'),
  environment: EnvironmentName,
  kind: PaymentKindSchema,
  status: PaymentStatusSchema,
  amount_minor: Type.String({
    description: 'The amount in minor units of currency, as a string ("1050" is R$ 10.50).',
  }),
  currency: Type.String({ description: 'BRL, USDT or USDC.' }),
  fee_minor: Type.String({ description: 'Our fee in minor units of currency, as a string; "0" when none.' }),
  description: Text('Your text about the payment; a charge shows it to the payer.'),
  provider_ref: Text("The PSP's or the chain provider's reference of the operation."),
  pix_qr_code: Text('The BR Code ("copia e cola") of a PIX charge; null on other kinds.'),
  pix_tx_id: Nullable(Type.String({ description: 'end-to-end id of the settled PIX transfer' }), {
    description: 'The end-to-end id (E2E) of the settled PIX transfer; null until settled.',
  }),
  pix_txid: Nullable(Type.String({ description: 'txid of the charge (BR Code field 62-05)' }), {
    description: 'The txid of a PIX charge (BR Code field 62-05); null on other kinds.',
  }),
  pix_key: Text('The PIX key paid to, on a payout or a refund.'),
  to_address: Text('The address sent to, on a crypto send.'),
  from_address: Text('The address a crypto deposit came from.'),
  network: Text('The chain of a crypto payment: polygon, ethereum, tron, solana …'),
  tx_hash: Text('The on-chain transaction hash of a crypto payment.'),
  failure_reason: Text('Why the payment failed, when it did.'),
  metadata: Metadata,
  idempotency_key: Text('The Idempotency-Key the payment was created with.'),
  counterparty: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Who is on the other side: payer or receiver name, PIX key, address. A CPF/CNPJ in `document` is always masked to its last two characters (`*********25`), here, in events and in webhooks.',
    }),
  ),
  wallet_id: Nullable(doc(Uuid, 'The wallet of a crypto payment.'), {
    description: 'The wallet of a crypto payment; null on other kinds.',
  }),
  source_currency: Text('The currency sold, on an RFQ conversion.'),
  target_currency: Text('The currency bought, on an RFQ conversion.'),
  exchange_rate: Nullable(Type.String({ description: 'decimal string' }), {
    description:
      'Units of target currency per unit of source currency, as a decimal string, on a conversion.',
  }),
  quote_id: Nullable(Uuid, { description: 'The RFQ quote a conversion executed.' }),
  related_payment_id: Nullable(Uuid, {
    description: 'The payment this one answers: the charge of a refund, the cash-in of a MED return.',
  }),
  expires_at: At('When an unpaid charge expires.'),
  completed_at: At('When the payment completed.'),
  failed_at: At('When the payment failed.'),
  created_at: doc(Timestamp, 'When the payment was created.'),
  updated_at: doc(Timestamp, 'When the payment last changed.'),
});

/** A completed PIX charge, as the document shows a payment. */
export const PAYMENT_EXAMPLE = {
  id: '0194f3a2-7c1e-7b3a-9d2f-4e5a6b7c8d90',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  kind: 'pix_cash_in',
  status: 'completed',
  amount_minor: '15000',
  currency: 'BRL',
  fee_minor: '150',
  description: 'Pedido 1001',
  provider_ref: 'sandbox-7f3a9c',
  pix_qr_code:
    '00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/7f3a9c5204000053039865406150.005802BR6304ABCD',
  pix_tx_id: 'E12345678202611260300abcdef12345',
  pix_txid: 'LASTRO7f3a9c0194f3a27c1e7b3a9d',
  pix_key: null,
  to_address: null,
  from_address: null,
  network: null,
  tx_hash: null,
  failure_reason: null,
  metadata: { order_id: '1001' },
  idempotency_key: 'order-1001',
  counterparty: { name: 'Maria Silva', document: '*********25' },
  wallet_id: null,
  source_currency: null,
  target_currency: null,
  exchange_rate: null,
  quote_id: null,
  related_payment_id: null,
  expires_at: '2026-11-26T04:00:00.000Z',
  completed_at: '2026-11-26T03:05:12.000Z',
  failed_at: null,
  created_at: '2026-11-26T03:00:00.000Z',
  updated_at: '2026-11-26T03:05:12.000Z',
};
export type PaymentView = Static<typeof Payment>;

export const PaymentListQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(doc(PaymentStatusSchema, 'Only the payments in this status.')),
  kind: Type.Optional(doc(PaymentKindSchema, 'Only the payments of this kind.')),
  party_id: Type.Optional(doc(Uuid, 'Only the payments of this party.')),
});
