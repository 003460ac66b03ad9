-- Items a background round could not handle (a deposit the ledger refuses, a transfer whose
-- reconciliation throws, a PSP notification item that fails): set aside here, so the round moves on
-- past them and one bad item never stops the work of every other tenant. The task that owns an item
-- retries it on a doubling backoff (1 minute to 6 hours), never again in front of the others. An
-- operator reads the open ones (resolved_at IS NULL), asks for a retry now (retry_at = now()) or
-- clears one that must never be retried (resolved_at = now(), resolution = 'cleared').
CREATE TABLE set_aside_items (
  -- The task or path that set it aside (crypto-deposit-watcher, pix-reconcile, ...).
  source text NOT NULL,
  -- The item within its source: network:tx_hash:log_index of a deposit, a payment id.
  item_key text NOT NULL,
  environment text,
  workspace_id uuid,
  -- What the owner needs to retry it, JSON text (jsonb refuses \u0000, which a chain or PSP may send).
  payload text NOT NULL,
  error text NOT NULL,
  error_code text,
  attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
  first_failed_at timestamptz NOT NULL,
  last_failed_at timestamptz NOT NULL,
  retry_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolution text CHECK (resolution IN ('retried', 'cleared')),
  PRIMARY KEY (source, item_key)
);

CREATE INDEX set_aside_items_open_idx ON set_aside_items (source, retry_at) WHERE resolved_at IS NULL;
