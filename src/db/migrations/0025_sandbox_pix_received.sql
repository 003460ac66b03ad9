-- The sandbox PSP's record of the PIX it received: what its GET /pix would list, so sandbox
-- reconciles against the sandbox PSP as live does against a real one. In sandbox each workspace has
-- a key of its own, so the PSP knows whose key a PIX reached: the rows are the workspace's.
CREATE TABLE sandbox_pix_received (
  workspace_id uuid NOT NULL,
  end_to_end_id text NOT NULL,
  txid text,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  received_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, end_to_end_id)
);
CREATE INDEX sandbox_pix_received_time_idx ON sandbox_pix_received (received_at);
