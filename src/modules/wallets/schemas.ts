import { Type } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import {
  doc,
  EnvironmentName,
  Name as NamedString,
  Nullable,
  Timestamp,
  Uuid,
} from '../../platform/schema.ts';
import { NETWORKS } from '../../providers/chain/networks.ts';

/** The spec's Wallet, plus its name and whether Lastro holds its key. */
export const Wallet = Type.Object({
  id: doc(Uuid, 'The wallet id.'),
  workspace_id: doc(Uuid, 'The workspace of the wallet.'),
  party_id: doc(Uuid, 'The party whose stablecoins it holds.'),
  environment: EnvironmentName,
  network: Type.String({ description: `one of ${NETWORKS.join(', ')}` }),
  address: Type.String({
    description: 'EIP-55 for EVM networks, base58check T… for Tron, base58 for Solana',
  }),
  wallet_name: Nullable(Type.String(), { description: 'Your name for the wallet.' }),
  is_primary: Type.Boolean({
    description: "The party's primary wallet on this network: sends leave from it by default.",
  }),
  provider_ref: Nullable(
    Type.String({ description: "the key-management provider's key; null for a watch-only wallet" }),
  ),
  watch_only: Type.Boolean({
    description: 'an address the caller brought: Lastro holds no key for it, so it cannot send',
  }),
  created_at: doc(Timestamp, 'When the wallet was created.'),
});

export const WALLET_EXAMPLE = {
  id: '0194f410-8d9e-7f0a-9b1c-2d3e4f5a6b7c',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  party_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e10',
  environment: 'sandbox',
  network: 'polygon',
  address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  wallet_name: 'Treasury',
  is_primary: true,
  provider_ref: 'sandbox-kms-0194f410',
  watch_only: false,
  created_at: '2026-11-21T10:00:00.000Z',
};

const Name = NamedString(140, { description: 'Your name for the wallet.' });

export const CreateWalletBody = Type.Object(
  {
    network: Type.String({ minLength: 1, maxLength: 32, description: NETWORKS.join(', ') }),
    address: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'only for a wallet whose key you hold (watch-only here); otherwise one is provisioned',
      }),
    ),
    wallet_name: Type.Optional(Name),
    walletName: Type.Optional(doc(Name, 'Alias of wallet_name.')),
    is_primary: Type.Optional(
      Type.Boolean({ description: 'default false; at most one per party and network' }),
    ),
    isPrimary: Type.Optional(Type.Boolean({ description: 'Alias of is_primary.' })),
    party_id: Type.Optional(doc(Uuid, "The party the wallet is for; the workspace's own when left out.")),
  },
  { examples: [{ network: 'polygon', wallet_name: 'Treasury', is_primary: true }] },
);

export const WalletListQuery = Type.Object({
  ...PageQuery(),
  party_id: Type.Optional(doc(Uuid, 'Only the wallets of this party.')),
  network: Type.Optional(Type.String({ maxLength: 32, description: 'Only the wallets on this network.' })),
});

/** Spec Limits: wallet transactions page size 1..200, default 50. */
export const WalletTransactionsQuery = Type.Object(PageQuery(200, 50));

export const WhitelistEntry = Type.Object({
  id: doc(Uuid, 'The whitelist entry id.'),
  workspace_id: doc(Uuid, 'The workspace whose API keys may send there.'),
  environment: EnvironmentName,
  network: Type.String({ description: `The network of the address: one of ${NETWORKS.join(', ')}.` }),
  address: Type.String({ description: 'The destination address, in its canonical form.' }),
  label: Nullable(Type.String(), { description: 'Your label for the destination.' }),
  created_at: doc(Timestamp, 'When it was whitelisted.'),
});

export const WHITELIST_EXAMPLE = {
  id: '0194f420-9e0f-7a1b-8c2d-3e4f5a6b7c8d',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  network: 'polygon',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  label: 'Supplier',
  created_at: '2026-11-22T14:00:00.000Z',
};

export const WhitelistBody = Type.Object(
  {
    network: Type.String({ minLength: 1, maxLength: 32, description: `One of ${NETWORKS.join(', ')}.` }),
    address: Type.String({
      minLength: 1,
      maxLength: 128,
      description: "An address of that network's shape.",
    }),
    label: Type.Optional(Type.String({ maxLength: 140, description: 'Your label for the destination.' })),
  },
  {
    examples: [
      { network: 'polygon', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: 'Supplier' },
    ],
  },
);

export const WhitelistQuery = Type.Object({
  ...PageQuery(),
  network: Type.Optional(Type.String({ maxLength: 32, description: 'Only the entries on this network.' })),
});
