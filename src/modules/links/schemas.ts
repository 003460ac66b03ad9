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
import { Payment, PaymentStatusSchema } from '../payments/schemas.ts';
import { MAX_SPLITS } from './split-math.ts';

export const LINK_STATUSES = ['active', 'inactive', 'expired'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** API.md: lower-case letters, digits and inner hyphens, 3 to 64 characters. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{1,62}[a-z0-9])$';
const Colour = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb', examples: ['#0b5fff'] });

/**
 * The page's look. Only #rrggbb colours are taken (they go into the page's CSS, so anything else
 * could inject CSS); the text colour on each is chosen by contrast, not by the merchant.
 */
export const Design = Type.Object(
  {
    brand_color: Type.Optional(doc(Colour, 'Buttons and header, as #rrggbb.')),
    background_color: Type.Optional(doc(Colour, 'The page background, as #rrggbb.')),
  },
  { description: 'brand_color (buttons, header) and background_color of the checkout page, as #rrggbb' },
);
export type DesignView = Static<typeof Design>;

const Title = Name(140, { description: 'The title shown on the checkout page.' });
const Description = Type.String({ maxLength: 1000, description: 'The text shown under the title.' });

export const PaymentLink = Type.Object({
  id: doc(Uuid, 'The payment link id.'),
  workspace_id: doc(Uuid, 'The workspace of the link.'),
  environment: EnvironmentName,
  party_id: doc(Uuid, 'The party credited with what the link collects (before splits).'),
  amount_minor: Nullable(Type.String({ description: 'integer minor units; null on an open-amount link' })),
  currency: Type.String({ description: 'BRL: the checkout is PIX.' }),
  allow_custom_amount: Type.Boolean({ description: 'Whether the payer chooses the amount.' }),
  status: Type.Enum(LINK_STATUSES, { description: 'active, inactive, or expired once past expires_at' }),
  slug: Type.String({ description: 'The last part of its URL.' }),
  url: Type.String({
    description:
      'the hosted checkout page, absolute: PUBLIC_BASE_URL + /pay/{slug} (e.g. https://pay.example.com/pay/ab12cd34)',
  }),
  title: Nullable(Type.String(), { description: 'The title shown on the checkout page.' }),
  description: Nullable(Type.String(), { description: 'The text shown under the title.' }),
  design: Design,
  expires_at: Nullable(Timestamp, { description: 'When the link stops taking payments; null for never.' }),
  created_at: doc(Timestamp, 'When the link was created.'),
  metadata: Metadata,
});

export const PAYMENT_LINK_EXAMPLE = {
  id: '0194f480-f46a-7b7c-8d8e-9f0a1b2c3d4e',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
  amount_minor: '4990',
  currency: 'BRL',
  allow_custom_amount: false,
  status: 'active',
  slug: 'curso-basico',
  url: 'https://pay.example.com/pay/curso-basico',
  title: 'Curso básico',
  description: 'Acesso por 12 meses',
  design: { brand_color: '#0b5fff' },
  expires_at: null,
  created_at: '2026-11-22T09:00:00.000Z',
  metadata: { sku: 'CB-12' },
};
export type PaymentLinkView = Static<typeof PaymentLink>;

export const CreateLinkBody = Type.Object(
  {
    amount_minor: Type.Optional(
      doc(AmountMinor, 'The price in minor units; leave out with allow_custom_amount.'),
    ),
    allow_custom_amount: Type.Optional(
      Type.Boolean({ default: false, description: 'The payer chooses the amount.' }),
    ),
    currency: Type.Optional(Type.String({ default: 'BRL', description: 'BRL: the checkout is PIX' })),
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    slug: Type.Optional(Type.String({ pattern: SLUG_PATTERN, description: 'random when omitted' })),
    expires_at: Type.Optional(doc(Timestamp, 'When the link stops taking payments.')),
    party_id: Type.Optional(doc(Uuid, "The party credited; the workspace's own when left out.")),
    design: Type.Optional(Design),
    metadata: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        amount_minor: '4990',
        title: 'Curso básico',
        description: 'Acesso por 12 meses',
        slug: 'curso-basico',
        design: { brand_color: '#0b5fff' },
        metadata: { sku: 'CB-12' },
      },
    ],
  },
);
export type CreateLinkInput = Static<typeof CreateLinkBody>;

export const UpdateLinkBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    allow_custom_amount: Type.Optional(Type.Boolean({ description: 'The payer chooses the amount.' })),
    design: Type.Optional(Design),
    status: Type.Optional(
      Type.Enum(['active', 'inactive'] as const, { description: 'inactive stops the link taking payments.' }),
    ),
  },
  { examples: [{ status: 'inactive' }] },
);
export type UpdateLinkInput = Static<typeof UpdateLinkBody>;

export const LinkListQuery = Type.Object({
  ...PageQuery(),
  party_id: Type.Optional(doc(Uuid, 'Only the links of this party.')),
});

export const Split = Type.Object({
  id: doc(Uuid, 'The split id.'),
  payment_link_id: doc(Uuid, 'The link it divides.'),
  party_id: doc(Uuid, 'The party credited with this share.'),
  recipient_label: Nullable(Type.String(), { description: 'Your label for the recipient.' }),
  share_bps: Type.Integer({ description: 'basis points of the net amount' }),
});
export type SplitView = Static<typeof Split>;

export const SplitsBody = Type.Object(
  {
    splits: Type.Array(
      Type.Object({
        party_id: doc(Uuid, 'A party of the workspace to credit.'),
        share_bps: Type.Integer({ description: '1..10000; the total at most 10000' }),
        recipient_label: Type.Optional(
          Type.String({ maxLength: 140, description: 'Your label for the recipient.' }),
        ),
      }),
      { description: `the whole set, at most ${MAX_SPLITS}; [] removes every split` },
    ),
  },
  {
    examples: [
      {
        splits: [
          {
            party_id: '0194f450-c13d-7e4f-9a5b-6c7d8e9f0a1b',
            share_bps: 8000,
            recipient_label: 'Instrutora',
          },
          {
            party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
            share_bps: 2000,
            recipient_label: 'Plataforma',
          },
        ],
      },
    ],
  },
);

export const SPLIT_EXAMPLE = {
  id: '0194f490-057b-7c8d-9e9f-0a1b2c3d4e5f',
  payment_link_id: '0194f480-f46a-7b7c-8d8e-9f0a1b2c3d4e',
  party_id: '0194f450-c13d-7e4f-9a5b-6c7d8e9f0a1b',
  recipient_label: 'Instrutora',
  share_bps: 8000,
};
export type SplitsInput = Static<typeof SplitsBody>;

/** A payment of the checkout list: the Payment resource and the link it was paid through. */
export const CheckoutPayment = Type.Object({
  ...Payment.properties,
  payment_link_id: doc(Uuid, 'The link it was paid through.'),
});

export const CHECKOUT_CURSOR_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?Z\\|[0-9a-fA-F-]{36}$';

export const CheckoutListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'How many to answer, 1 to 100.' }),
  ),
  cursor: Type.Optional(
    Type.String({ pattern: CHECKOUT_CURSOR_PATTERN, description: '<created_at>|<id> of the last row seen' }),
  ),
  status: Type.Optional(doc(PaymentStatusSchema, 'Only payments in this status.')),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 140,
      description: 'a CPF/CNPJ in any punctuation (exact, by keyed hash) or part of the payer name',
    }),
  ),
  party_id: Type.Optional(doc(Uuid, 'Only payments credited to this party.')),
  payment_link_id: Type.Optional(doc(Uuid, 'Only payments of this link.')),
});
export type CheckoutListInput = Static<typeof CheckoutListQuery>;

export const CheckoutPage = Type.Object({
  items: Type.Array(CheckoutPayment, { description: 'The payments of this page, newest first.' }),
  next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null at the end' })),
});

/** Public (no auth): what the hosted page sends and gets back. */
export const CheckoutBody = Type.Object(
  {
    amount_minor: Type.Optional(doc(AmountMinor, 'The amount the payer chose, on an open-amount link only.')),
    payer: Type.Object(
      {
        name: Name(140, { description: "The payer's name." }),
        document: Type.String({
          minLength: 1,
          maxLength: 32,
          description:
            'CPF or CNPJ, any punctuation. Kept sealed with the checkout record (found by exact match); the payment shows it masked to its last two characters.',
        }),
      },
      { description: 'Who pays.' },
    ),
  },
  { examples: [{ payer: { name: 'Maria Silva', document: '529.982.247-25' } }] },
);
export type CheckoutInput = Static<typeof CheckoutBody>;

export const PublicPayment = Type.Object({
  id: doc(Uuid, 'The payment id.'),
  status: PaymentStatusSchema,
  amount_minor: Type.String({ description: 'The amount in minor units, as a string.' }),
  currency: Type.String({ description: 'BRL.' }),
});
export type PublicPaymentView = Static<typeof PublicPayment>;

export const CheckoutCharge = Type.Object({
  ...PublicPayment.properties,
  pix_qr_code: Type.String({ description: 'the BR Code, copy-paste text' }),
  qr_code_png: Type.String({ description: 'the BR Code as a PNG data URL' }),
  expires_at: doc(Timestamp, 'When the charge expires unpaid.'),
});

export const SlugParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 64, description: 'The slug of the payment link.' }),
});
export const SlugPaymentParams = Type.Object({
  slug: SlugParams.properties.slug,
  id: doc(Uuid, 'The payment id the checkout answered.'),
});
