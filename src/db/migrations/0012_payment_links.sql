-- Payment links (hosted PIX checkout pages), their revenue splits, and the checkout record of each
-- charge a buyer starts, with the split frozen at charge time (issue 13).

-- The one cross-tenant table (DESIGN.md Scale-out): a slug is unique across every workspace and
-- environment, so /pay/{slug} names one link. A reference table when the schema is distributed.
CREATE TABLE payment_link_slugs (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$'),
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  payment_link_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payment_links (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  -- The link's owner: the party the net amount (or what the splits leave) is credited to.
  party_id uuid NOT NULL,
  amount_minor bigint CHECK (amount_minor > 0),
  currency text NOT NULL,
  allow_custom_amount boolean NOT NULL DEFAULT false,
  -- expired is not stored: a link past expires_at reads expired whatever this says.
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  slug text NOT NULL UNIQUE REFERENCES payment_link_slugs (slug),
  title text,
  description text,
  design jsonb NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, id),
  -- A fixed amount, an open amount, or both (an open page with a suggested amount); never neither.
  CHECK (amount_minor IS NOT NULL OR allow_custom_amount),
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id)
);
CREATE INDEX payment_links_list_idx ON payment_links (workspace_id, environment, id DESC);

-- The split set in force now. PUT replaces it whole; a checkout copies it into its own record.
CREATE TABLE payment_link_splits (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  payment_link_id uuid NOT NULL,
  party_id uuid NOT NULL,
  recipient_label text,
  share_bps integer NOT NULL CHECK (share_bps BETWEEN 1 AND 10000),
  position integer NOT NULL,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, payment_link_id, party_id),
  FOREIGN KEY (workspace_id, payment_link_id) REFERENCES payment_links (workspace_id, id),
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id)
);

-- One row per charge started on a link's page, written in the charge's own transaction. splits is
-- the link's split set at that moment ([{party_id, recipient_label, share_bps}]): settlement reads
-- it, never the link's current splits. The payer's document is kept sealed (AES-256-GCM under the
-- master key) with a keyed hash (HMAC-SHA256 under a key derived from it) for exact search.
CREATE TABLE payment_link_payments (
  workspace_id uuid NOT NULL,
  payment_id uuid NOT NULL REFERENCES payments (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  payment_link_id uuid NOT NULL,
  splits jsonb NOT NULL,
  payer_name text NOT NULL,
  payer_document_sealed text NOT NULL,
  payer_document_hash bytea NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, payment_id),
  FOREIGN KEY (workspace_id, payment_link_id) REFERENCES payment_links (workspace_id, id)
);
CREATE INDEX payment_link_payments_list_idx
  ON payment_link_payments (workspace_id, environment, created_at DESC, payment_id DESC);
CREATE INDEX payment_link_payments_document_idx
  ON payment_link_payments (workspace_id, environment, payer_document_hash);
