-- Idempotency keys belong to the caller, not only to the workspace: two party-scoped keys of one
-- workspace (or a parent acting on its sub-account and the sub-account's own keys) that happen to
-- send the same key must each run their own request.
ALTER TABLE idempotency_keys ADD COLUMN caller text NOT NULL DEFAULT 'workspace';
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (workspace_id, environment, caller, key);
