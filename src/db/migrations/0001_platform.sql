-- Platform core: owners, workspaces, parties, credentials, idempotency, audit log, event outbox.

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  totp_secret_enc text,
  totp_enabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  parent_workspace_id uuid REFERENCES workspaces (id),
  display_name text NOT NULL,
  legal_name text,
  country text,
  status text NOT NULL DEFAULT 'active',
  settings jsonb NOT NULL DEFAULT '{}',
  production_enabled boolean NOT NULL DEFAULT false,
  default_party_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workspaces_parent_idx ON workspaces (parent_workspace_id) WHERE parent_workspace_id IS NOT NULL;

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  user_id uuid NOT NULL REFERENCES users (id),
  role text NOT NULL DEFAULT 'owner',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);

-- A party owns money: the workspace's own entity, its customers. Customers belong to the workspace, not to an environment.
CREATE TABLE parties (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  kind text NOT NULL CHECK (kind IN ('entity', 'person', 'business')),
  display_name text NOT NULL,
  legal_name text,
  document_type text,
  document_number text,
  email text,
  phone text,
  country text,
  status text NOT NULL DEFAULT 'active',
  kyc_status text NOT NULL DEFAULT 'not_started',
  external_id text,
  payout_mode text,
  payout_asset text,
  payout_wallet_address text,
  payout_wallet_network text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, id)
);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  name text NOT NULL,
  party_id uuid,
  key_hash bytea NOT NULL UNIQUE,
  last4 text NOT NULL,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text,
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id)
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, environment, id DESC);

-- The record is written in the transaction of the write it guards; response is NULL only inside that transaction.
-- Keys belong to the caller, not only to the workspace: two party-scoped keys of one workspace (or a
-- parent acting on its sub-account and the sub-account's own keys) sending the same key each run.
CREATE TABLE idempotency_keys (
  workspace_id uuid NOT NULL,
  environment text NOT NULL,
  caller text NOT NULL DEFAULT 'workspace',
  key text NOT NULL,
  request_hash bytea NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status_code integer,
  response jsonb,
  money_moving boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, environment, caller, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (created_at) WHERE NOT money_moving;

CREATE TABLE audit_events (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text,
  actor_type text NOT NULL,
  actor_id text,
  action text NOT NULL,
  target_type text,
  target_id text,
  ip text,
  request_id text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_workspace_idx ON audit_events (workspace_id, id DESC);

-- The outbox: every change's event is written in the change's own transaction.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_workspace_idx ON events (workspace_id, environment, id DESC);
