-- Customers, KYC cases and their requests for information (issue 10). The parties table of 0001 grows
-- what customers need; nothing was ever stored in its plain document_number, which goes: a document
-- is kept sealed (AES-256-GCM under the master key) with a keyed hash beside it for exact lookup.
ALTER TABLE parties DROP COLUMN document_number;
ALTER TABLE parties
  ADD COLUMN document_number_sealed text,
  ADD COLUMN document_hash bytea,
  -- display name, legal name, e-mail and external id, lower-cased and without accents (kept by the
  -- service, so search is accent-insensitive on PGlite too, which has no unaccent).
  ADD COLUMN search_text text NOT NULL DEFAULT '',
  -- kyc_status is the live one (the live payout gate reads it); sandbox cases move this one, so a
  -- sandbox test helper can never approve anyone for live money.
  ADD COLUMN sandbox_kyc_status text NOT NULL DEFAULT 'not_started';

ALTER TABLE parties
  ADD CONSTRAINT parties_status_check CHECK (status IN ('active', 'blocked')),
  ADD CONSTRAINT parties_document_type_check CHECK (document_type IN ('cpf', 'cnpj')),
  ADD CONSTRAINT parties_kyc_status_check
    CHECK (kyc_status IN ('not_started', 'pending', 'in_review', 'approved', 'rejected')),
  ADD CONSTRAINT parties_sandbox_kyc_status_check
    CHECK (sandbox_kyc_status IN ('not_started', 'pending', 'in_review', 'approved', 'rejected'));

CREATE UNIQUE INDEX parties_external_id_key ON parties (workspace_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX parties_document_hash_idx ON parties (workspace_id, document_hash) WHERE document_hash IS NOT NULL;
CREATE INDEX parties_customers_idx ON parties (workspace_id, id DESC) WHERE kind <> 'entity';

-- A KYC case belongs to an environment: a sandbox case never decides live money.
CREATE TABLE kyc_cases (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_review', 'approved', 'rejected')),
  decision_reason text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, id),
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id)
);
-- One undecided case per party and environment.
CREATE UNIQUE INDEX kyc_cases_open_key ON kyc_cases (workspace_id, environment, party_id)
  WHERE status IN ('pending', 'in_review');
CREATE INDEX kyc_cases_list_idx ON kyc_cases (workspace_id, environment, id DESC);

CREATE TABLE kyc_rfi_items (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  kyc_case_id uuid NOT NULL,
  field_name text NOT NULL,
  description text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
  -- An answer may carry documents: sealed like them.
  answer_sealed text,
  answered_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (workspace_id, kyc_case_id) REFERENCES kyc_cases (workspace_id, id)
);
CREATE INDEX kyc_rfi_items_case_idx ON kyc_rfi_items (workspace_id, kyc_case_id, id DESC);
