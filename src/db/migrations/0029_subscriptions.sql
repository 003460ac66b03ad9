-- Pix Automático subscriptions (BCB API Pix, github.com/bacen/pix-api openapi.yaml v2.9.0: /rec, /cobr).
-- A paid cycle is a payment of its own kind, credited to the subscription's party like a cash-in.
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN (
  'pix_cash_in', 'pix_cash_out', 'pix_refund', 'pix_med_return', 'pix_automatic', 'crypto_send',
  'crypto_deposit', 'rfq_settlement'));

-- A recurrence (the API Pix's rec): what the payer authorises once, at a fixed amount or above a floor.
CREATE TABLE subscriptions (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  status text NOT NULL CHECK (status IN (
    'pending_authorisation', 'active', 'refused', 'cancelled', 'expired', 'completed')),
  debtor_name text NOT NULL,
  debtor_document text NOT NULL,
  debtor_document_type text NOT NULL CHECK (debtor_document_type IN ('cpf', 'cnpj')),
  amount_minor bigint CHECK (amount_minor > 0),
  minimum_minor bigint CHECK (minimum_minor > 0),
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'quarterly', 'semiannual', 'annual')),
  start_date date NOT NULL,
  end_date date,
  retry_policy text NOT NULL CHECK (retry_policy IN ('none', 'three_in_seven_days')),
  description text,
  provider_ref text,
  authorised_at timestamptz,
  cancelled_by text CHECK (cancelled_by IN ('receiver', 'payer')),
  metadata jsonb NOT NULL DEFAULT '{}',
  -- Sandbox only: how many of the next payment attempts the simulator said fail.
  failures_planned integer NOT NULL DEFAULT 0 CHECK (failures_planned >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, id),
  CHECK ((amount_minor IS NULL) <> (minimum_minor IS NULL))
);
-- The cycle task walks the subscriptions that may have work: the live ones and those awaiting the payer.
CREATE INDEX subscriptions_open_idx ON subscriptions (status) WHERE status IN ('pending_authorisation', 'active');

-- One row per cycle (the API Pix's cobr), created inside the 2-to-10-day window before its due date;
-- (subscription, sequence) is unique, so a task that runs twice schedules and credits a cycle once.
CREATE TABLE subscription_cycles (
  workspace_id uuid NOT NULL,
  subscription_id uuid NOT NULL,
  sequence integer NOT NULL CHECK (sequence >= 1),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  -- No payment when the cycle's charge window passed before it could be sent (skipped).
  payment_id uuid,
  due_date date NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  status text NOT NULL CHECK (status IN ('scheduled', 'retrying', 'paid', 'failed', 'cancelled', 'skipped')),
  txid text,
  -- Live: when the PSP accepted the cycle's cobr; the cycle is written first, then sent.
  sent_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_date date,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, subscription_id, sequence),
  UNIQUE (workspace_id, payment_id),
  FOREIGN KEY (workspace_id, subscription_id) REFERENCES subscriptions (workspace_id, id)
);
CREATE INDEX subscription_cycles_open_idx ON subscription_cycles (next_attempt_date)
  WHERE status IN ('scheduled', 'retrying');
