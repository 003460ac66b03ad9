import { type Static, Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import {
  AmountMinor,
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
    brand_color: Type.Optional(Colour),
    background_color: Type.Optional(Colour),
  },
  { description: 'brand_color (buttons, header) and background_color of the checkout page, as #rrggbb' },
);
export type DesignView = Static<typeof Design>;

const Title = Name(140);
const Description = Type.String({ maxLength: 1000 });

export const PaymentLink = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  environment: EnvironmentName,
  party_id: Uuid,
  amount_minor: Nullable(Type.String({ description: 'integer minor units; null on an open-amount link' })),
  currency: Type.String(),
  allow_custom_amount: Type.Boolean(),
  status: Type.Enum(LINK_STATUSES, { description: 'active, inactive, or expired once past expires_at' }),
  slug: Type.String(),
  url: Type.String({
    description:
      'the hosted checkout page, absolute: PUBLIC_BASE_URL + /pay/{slug} (e.g. https://pay.example.com/pay/ab12cd34)',
  }),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  design: Design,
  expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  metadata: Metadata,
});
export type PaymentLinkView = Static<typeof PaymentLink>;

export const CreateLinkBody = Type.Object({
  amount_minor: Type.Optional(AmountMinor),
  allow_custom_amount: Type.Optional(Type.Boolean({ default: false })),
  currency: Type.Optional(Type.String({ default: 'BRL', description: 'BRL: the checkout is PIX' })),
  title: Type.Optional(Title),
  description: Type.Optional(Description),
  slug: Type.Optional(Type.String({ pattern: SLUG_PATTERN, description: 'random when omitted' })),
  expires_at: Type.Optional(Timestamp),
  party_id: Type.Optional(Uuid),
  design: Type.Optional(Design),
  metadata: Type.Optional(MetadataBody),
});
export type CreateLinkInput = Static<typeof CreateLinkBody>;

export const UpdateLinkBody = Type.Object({
  title: Type.Optional(Title),
  description: Type.Optional(Description),
  allow_custom_amount: Type.Optional(Type.Boolean()),
  design: Type.Optional(Design),
  status: Type.Optional(Type.Enum(['active', 'inactive'] as const)),
});
export type UpdateLinkInput = Static<typeof UpdateLinkBody>;

export const LinkListQuery = Type.Object({ ...PageQuery(), party_id: Type.Optional(Uuid) });

export const Split = Type.Object({
  id: Uuid,
  payment_link_id: Uuid,
  party_id: Uuid,
  recipient_label: Nullable(Type.String()),
  share_bps: Type.Integer({ description: 'basis points of the net amount' }),
});
export type SplitView = Static<typeof Split>;

export const SplitsBody = Type.Object({
  splits: Type.Array(
    Type.Object({
      party_id: Uuid,
      share_bps: Type.Integer({ description: '1..10000; the total at most 10000' }),
      recipient_label: Type.Optional(Type.String({ maxLength: 140 })),
    }),
    { description: `the whole set, at most ${MAX_SPLITS}; [] removes every split` },
  ),
});
export type SplitsInput = Static<typeof SplitsBody>;

/** A payment of the checkout list: the Payment resource and the link it was paid through. */
export const CheckoutPayment = Type.Object({ ...Payment.properties, payment_link_id: Uuid });

export const CHECKOUT_CURSOR_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?Z\\|[0-9a-fA-F-]{36}$';

export const CheckoutListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  cursor: Type.Optional(
    Type.String({ pattern: CHECKOUT_CURSOR_PATTERN, description: '<created_at>|<id> of the last row seen' }),
  ),
  status: Type.Optional(PaymentStatusSchema),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 140,
      description: 'a CPF/CNPJ in any punctuation (exact, by keyed hash) or part of the payer name',
    }),
  ),
  party_id: Type.Optional(Uuid),
  payment_link_id: Type.Optional(Uuid),
});
export type CheckoutListInput = Static<typeof CheckoutListQuery>;

export const CheckoutPage = Type.Object({
  items: Type.Array(CheckoutPayment),
  next_cursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null at the end' })),
});

/** Public (no auth): what the hosted page sends and gets back. */
export const CheckoutBody = Type.Object({
  amount_minor: Type.Optional(AmountMinor),
  payer: Type.Object({
    name: Name(140),
    document: Type.String({
      minLength: 1,
      maxLength: 32,
      description:
        'CPF or CNPJ, any punctuation. Kept sealed with the checkout record (found by exact match); the payment shows it masked to its last two characters.',
    }),
  }),
});
export type CheckoutInput = Static<typeof CheckoutBody>;

export const PublicPayment = Type.Object({
  id: Uuid,
  status: PaymentStatusSchema,
  amount_minor: Type.String(),
  currency: Type.String(),
});
export type PublicPaymentView = Static<typeof PublicPayment>;

export const CheckoutCharge = Type.Object({
  ...PublicPayment.properties,
  pix_qr_code: Type.String({ description: 'the BR Code, copy-paste text' }),
  qr_code_png: Type.String({ description: 'the BR Code as a PNG data URL' }),
  expires_at: Timestamp,
});

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) });
export const SlugPaymentParams = Type.Object({ slug: SlugParams.properties.slug, id: Uuid });
