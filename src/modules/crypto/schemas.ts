import { Type } from 'typebox';
import { AmountMinor, MetadataBody, Uuid } from '../../platform/schema.ts';
import { NETWORKS } from '../../providers/chain/networks.ts';

const Address = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

export const SendBody = Type.Object({
  amount_minor: { ...AmountMinor, description: 'integer minor units of currency (USDT/USDC: scale 6)' },
  to_address: Address("must fit the network's address shape; another chain's address is refused"),
  network: Type.String({ minLength: 1, maxLength: 32, description: NETWORKS.join(', ') }),
  currency: Type.String({ minLength: 1, maxLength: 8, description: 'USDT or USDC' }),
  from_address: Type.Optional(
    Address("one of the party's own wallets on network; omitted: the party's only wallet there"),
  ),
  party_id: Type.Optional(Uuid),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  metadata: Type.Optional(MetadataBody),
});

/** X-OTP-Code: free text here, so a code of any wrong shape is 401 otp_invalid, not 400. */
export const OtpHeaders = Type.Object({
  'x-otp-code': Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'the current TOTP code; required when the caller is a dashboard session with 2FA on',
    }),
  ),
});

export const SimulateDepositBody = Type.Object({
  wallet_id: Uuid,
  currency: Type.String({ minLength: 1, maxLength: 8, description: 'USDT or USDC' }),
  amount_minor: AmountMinor,
});
