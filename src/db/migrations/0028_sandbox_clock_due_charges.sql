-- A workspace's sandbox clock: how far its sandbox time runs ahead of real time (Stripe's test
-- clocks are the model). Live never reads it. A workspace without a row runs on real time.
CREATE TABLE sandbox_clocks (
  workspace_id uuid PRIMARY KEY,
  offset_seconds bigint NOT NULL CHECK (offset_seconds >= 0),
  updated_at timestamptz NOT NULL
);

-- The terms of a PIX charge with a due date (BCB API Pix, CobV): the payment (kind pix_cash_in)
-- holds the nominal amount until it is paid, then the amount paid; these are what the amount due on
-- a given day is computed from. terms holds fine, interest, rebate and discount as the API takes them.
CREATE TABLE pix_due_charges (
  workspace_id uuid NOT NULL,
  payment_id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  due_date date NOT NULL,
  days_valid_after_due integer NOT NULL CHECK (days_valid_after_due >= 0),
  nominal_minor bigint NOT NULL CHECK (nominal_minor > 0),
  debtor_name text NOT NULL,
  debtor_document text NOT NULL,
  debtor_document_type text NOT NULL CHECK (debtor_document_type IN ('cpf', 'cnpj')),
  terms jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, payment_id)
);
-- The expiry sweep looks for unpaid charges whose last day has passed.
CREATE INDEX pix_due_charges_due_idx ON pix_due_charges (due_date);
