import { Type } from 'typebox';
import { AmountMinor, doc, MetadataBody, Uuid } from '../../platform/schema.ts';
import { NETWORKS } from '../../providers/chain/networks.ts';

const Address = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

export const SendBody = Type.Object(
  {
    amount_minor: { ...AmountMinor, description: 'integer minor units of currency (USDT/USDC: scale 6)' },
    to_address: Address("must fit the network's address shape; another chain's address is refused"),
    network: Type.String({ minLength: 1, maxLength: 32, description: NETWORKS.join(', ') }),
    currency: Type.String({ minLength: 1, maxLength: 8, description: 'USDT or USDC' }),
    from_address: Type.Optional(
      Address("one of the party's own wallets on network; omitted: the party's only wallet there"),
    ),
    party_id: Type.Optional(
      doc(Uuid, "The party whose wallet and balance send; the workspace's own when left out."),
    ),
    description: Type.Optional(Type.String({ maxLength: 140, description: 'Your text about the send.' })),
    metadata: Type.Optional(MetadataBody),
  },
  {
    examples: [
      {
        amount_minor: '25000000',
        to_address: '0x52908400098527886E0F7030069857D2E4169EE7',
        network: 'polygon',
        currency: 'USDT',
        description: 'Supplier invoice 88',
      },
    ],
  },
);

/** X-OTP-Code: free text here, so a code of any wrong shape is 401 otp_invalid, not 400. */
export const OtpHeaders = Type.Object({
  'x-otp-code': Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'the current TOTP code; required when the caller is a dashboard session with 2FA on',
    }),
  ),
});

export const SimulateDepositBody = Type.Object(
  {
    wallet_id: doc(Uuid, 'The wallet the stablecoins arrive at.'),
    currency: Type.String({ minLength: 1, maxLength: 8, description: 'USDT or USDC' }),
    amount_minor: doc(AmountMinor, 'How much arrives, in minor units (USDT/USDC: scale 6, "1000000" is 1).'),
  },
  {
    examples: [
      { wallet_id: '0194f410-8d9e-7f0a-9b1c-2d3e4f5a6b7c', currency: 'USDT', amount_minor: '50000000' },
    ],
  },
);
