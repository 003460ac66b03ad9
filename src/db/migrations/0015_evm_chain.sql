-- Provider-side state of the live EVM chain adapter (src/providers/chain/evm): what a custodian's
-- signer would keep. None of it belongs to a tenant; the payments that point at it carry the workspace.

-- The next nonce of each sending address on each network. A send takes it under this row's lock, so
-- two workers never give one nonce to two transactions (the unique index below is the last word).
CREATE TABLE evm_nonces (
  network text NOT NULL,
  address text NOT NULL,
  next_nonce bigint NOT NULL CHECK (next_nonce >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, address)
);

-- One ERC-20 transfer per send, keyed by our payment id (the idempotency key: never two transactions
-- for one payment). The signed transaction is kept, so a crash or a dropped transaction is answered by
-- broadcasting the very same bytes (same nonce, same hash) again.
CREATE TABLE evm_transfers (
  payment_id uuid PRIMARY KEY,
  network text NOT NULL,
  token text NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  amount numeric(78, 0) NOT NULL CHECK (amount > 0),
  -- What the transaction is signed over (EIP-1559), kept so a signature lost to a crash is made again
  -- identically; null on a send refused before a nonce was taken.
  key_ref text,
  chain_id bigint,
  nonce bigint,
  gas bigint,
  max_fee_per_gas numeric(78, 0),
  max_priority_fee_per_gas numeric(78, 0),
  tx_hash text UNIQUE,
  raw_tx text,
  status text NOT NULL CHECK (status IN ('signed', 'broadcast', 'completed', 'failed')),
  failure_reason text,
  broadcasts integer NOT NULL DEFAULT 0,
  -- When the node last knew the transaction (mempool or block); unknown for longer than the drop
  -- timeout, it is broadcast again.
  seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One transaction per nonce and address, the backstop of the nonce lock. A transfer failed before the
-- chain took it leaves its nonce free for the next send; one the chain took used it up anyway.
CREATE UNIQUE INDEX evm_transfers_nonce_idx ON evm_transfers (network, from_address, nonce) WHERE status <> 'failed';

CREATE INDEX evm_transfers_open_idx ON evm_transfers (network, from_address) WHERE status IN ('signed', 'broadcast');

-- The deposit watcher's position per network: the first block not yet read. Moved only after every
-- transfer read below it was credited.
CREATE TABLE evm_log_cursors (
  network text PRIMARY KEY,
  next_block bigint NOT NULL CHECK (next_block >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
