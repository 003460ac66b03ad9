import { Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { EnvironmentName, Name as NamedString, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';
import { NETWORKS } from '../../providers/chain/networks.ts';

/** The spec's Wallet, plus its name and whether Lastro holds its key. */
export const Wallet = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  party_id: Uuid,
  environment: EnvironmentName,
  network: Type.String({ description: `one of ${NETWORKS.join(', ')}` }),
  address: Type.String({
    description: 'EIP-55 for EVM networks, base58check T… for Tron, base58 for Solana',
  }),
  wallet_name: Nullable(Type.String()),
  is_primary: Type.Boolean(),
  provider_ref: Nullable(
    Type.String({ description: "the key-management provider's key; null for a watch-only wallet" }),
  ),
  watch_only: Type.Boolean({
    description: 'an address the caller brought: Lastro holds no key for it, so it cannot send',
  }),
  created_at: Timestamp,
});

const Name = NamedString(140);

export const CreateWalletBody = Type.Object({
  network: Type.String({ minLength: 1, maxLength: 32, description: NETWORKS.join(', ') }),
  address: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'only for a wallet whose key you hold (watch-only here); otherwise one is provisioned',
    }),
  ),
  wallet_name: Type.Optional(Name),
  walletName: Type.Optional(Name),
  is_primary: Type.Optional(
    Type.Boolean({ description: 'default false; at most one per party and network' }),
  ),
  isPrimary: Type.Optional(Type.Boolean()),
  party_id: Type.Optional(Uuid),
});

export const WalletListQuery = Type.Object({
  ...PageQuery(),
  party_id: Type.Optional(Uuid),
  network: Type.Optional(Type.String({ maxLength: 32 })),
});

/** Spec Limits: wallet transactions page size 1..200, default 50. */
export const WalletTransactionsQuery = Type.Object(PageQuery(200, 50));

export const WhitelistEntry = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  environment: EnvironmentName,
  network: Type.String(),
  address: Type.String(),
  label: Nullable(Type.String()),
  created_at: Timestamp,
});

export const WhitelistBody = Type.Object({
  network: Type.String({ minLength: 1, maxLength: 32 }),
  address: Type.String({ minLength: 1, maxLength: 128 }),
  label: Type.Optional(Type.String({ maxLength: 140 })),
});

export const WhitelistQuery = Type.Object({
  ...PageQuery(),
  network: Type.Optional(Type.String({ maxLength: 32 })),
});
