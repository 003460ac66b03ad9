-- Wallets (crypto addresses of a party on a network), the owner's whitelist of crypto destinations,
-- and the deposits credited from the chain.

-- One row per (network, address): an EVM wallet is one row per EVM network, all with the same address
-- and key. provider_ref is the key-management provider's key; NULL for a watch-only wallet (an address
-- the caller brought, whose key Lastro does not hold: it cannot send, and deposits into it are not ours).
CREATE TABLE wallets (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  network text NOT NULL,
  address text NOT NULL,
  wallet_name text,
  is_primary boolean NOT NULL DEFAULT false,
  provider_ref text,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id),
  UNIQUE (workspace_id, environment, network, address)
);
CREATE INDEX wallets_list_idx ON wallets (workspace_id, environment, id DESC);
CREATE INDEX wallets_party_idx ON wallets (workspace_id, environment, party_id, network);
-- At most one primary wallet per party and network.
CREATE UNIQUE INDEX wallets_primary_idx ON wallets (workspace_id, environment, party_id, network) WHERE is_primary;
-- A custodial address belongs to exactly one wallet row per network: a deposit credits one party.
CREATE UNIQUE INDEX wallets_custody_idx ON wallets (environment, network, address) WHERE provider_ref IS NOT NULL;

-- Destinations an API key may send crypto to, per workspace and environment; an EVM address counts on
-- its network only.
CREATE TABLE whitelist_addresses (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  network text NOT NULL,
  address text NOT NULL,
  label text,
  created_by uuid,
  created_at timestamptz NOT NULL,
  UNIQUE (workspace_id, environment, network, address)
);
CREATE INDEX whitelist_addresses_list_idx ON whitelist_addresses (workspace_id, environment, id DESC);

-- Each incoming chain transfer credited once: the watcher and the sandbox helper may both see it.
CREATE TABLE crypto_deposits (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  network text NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  wallet_id uuid NOT NULL REFERENCES wallets (id),
  -- Deferred: the deposit is claimed first (the claim is what makes crediting it once safe), then paid.
  payment_id uuid NOT NULL REFERENCES payments (id) DEFERRABLE INITIALLY DEFERRED,
  confirmed_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A custodial address is one wallet's (wallets_custody_idx), so a transfer always lands in the same
  -- workspace: leading with it keeps the table distributable by workspace.
  PRIMARY KEY (workspace_id, environment, network, tx_hash, log_index)
);

-- How far the deposit watcher has read each environment's chain (the service's own state, no tenant).
CREATE TABLE chain_watch_cursors (
  environment text PRIMARY KEY CHECK (environment IN ('sandbox', 'live')),
  since timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A wallet's transactions are its payments (sends from it, deposits into it).
CREATE INDEX payments_wallet_idx ON payments (workspace_id, environment, wallet_id, id DESC) WHERE wallet_id IS NOT NULL;

-- The sandbox chain's deposits may carry the key of the helper call that made them, so a retry of that
-- call finds its deposit instead of making a second one.
ALTER TABLE sandbox_chain_transfers ADD COLUMN deposit_key text UNIQUE;
