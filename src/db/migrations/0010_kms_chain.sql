-- Provider-side state for the crypto rail: the local key-management provider's keys and the sandbox
-- chain's transfers. Neither belongs to a tenant: they are what a KMS or a chain would keep on its side,
-- and the wallets and payments that point at them carry the workspace.

-- A key pair per row. The private key is only ever stored sealed (AES-256-GCM under MASTER_KEY).
CREATE TABLE kms_keys (
  id uuid PRIMARY KEY,
  family text NOT NULL CHECK (family IN ('evm', 'tron', 'solana')),
  algorithm text NOT NULL CHECK (algorithm IN ('secp256k1', 'ed25519')),
  public_key text NOT NULL,
  address text NOT NULL UNIQUE,
  sealed_private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Sends (payment_id set, our idempotency key) and deposits from outside (payment_id null). A transfer
-- is confirmed at settle_at; a failed send has no tx_hash when the chain refused it before broadcast.
CREATE TABLE sandbox_chain_transfers (
  id uuid PRIMARY KEY,
  payment_id uuid UNIQUE,
  network text NOT NULL,
  currency text NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  tx_hash text,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  failure_reason text,
  settle_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (network, tx_hash)
);

CREATE INDEX sandbox_chain_transfers_to_idx ON sandbox_chain_transfers (network, to_address, settle_at);
CREATE INDEX sandbox_chain_transfers_due_idx ON sandbox_chain_transfers (settle_at) WHERE status = 'processing';
