-- PIX: the workspace's registered settlement key (where API-key payouts go), fee schedules, and the
-- sandbox PSP's own state (what a real PSP would keep on its side).

CREATE TABLE settlement_keys (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  pix_key text NOT NULL,
  pix_key_type text NOT NULL CHECK (pix_key_type IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
  holder_name text NOT NULL,
  holder_document text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, environment)
);

-- A fee per rail: fixed minor units plus basis points of the amount (rounded up: what we charge rounds up).
CREATE TABLE fee_schedules (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  rail text NOT NULL,
  fixed_minor bigint NOT NULL DEFAULT 0 CHECK (fixed_minor >= 0),
  bps integer NOT NULL DEFAULT 0 CHECK (bps BETWEEN 0 AND 10000),
  PRIMARY KEY (workspace_id, environment, rail)
);

CREATE TABLE sandbox_pix_transfers (
  payment_id uuid PRIMARY KEY,
  direction text NOT NULL CHECK (direction IN ('payout', 'refund')),
  amount bigint NOT NULL,
  pix_key text,
  end_to_end_id text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  failure_reason text,
  settle_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX payments_pix_txid_idx ON payments (pix_txid) WHERE pix_txid IS NOT NULL;
