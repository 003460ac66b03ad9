-- The deposit watcher reads each token contract's Transfer logs on its own (all of them, matched
-- against our addresses in memory), so its position is kept per (network, token contract). The rows
-- of before (one per network) stay with token '' and are where a token's first scan starts.
ALTER TABLE evm_log_cursors ADD COLUMN token text NOT NULL DEFAULT '';
ALTER TABLE evm_log_cursors DROP CONSTRAINT evm_log_cursors_pkey;
ALTER TABLE evm_log_cursors ADD PRIMARY KEY (network, token);
