-- Foreign keys whose checks cost every money-moving write about a tenth of PostgreSQL's CPU (each is
-- a query of its own, run per inserted row, and a lock on the referenced row) while the writer already
-- keeps them (docs/architecture.md, "Keys the writer keeps"):
-- - a posting's journal and account: ledger_post is the only writer of postings; it inserts the
--   journal in the same call and takes each account from ledger_accounts by the journal's own
--   workspace, and journals are append-only. `lastro verify` (cross_workspace_posting) finds a
--   posting without its journal or its account, as it did when a restore bypassed the keys;
-- - the workspace of a journal, an event and a payment: every one is written for an authenticated
--   caller's workspace, and workspaces are never deleted. A payment keeps its party's key, and a
--   party its workspace's.
ALTER TABLE ledger_postings DROP CONSTRAINT IF EXISTS ledger_postings_journal_fkey;
ALTER TABLE ledger_postings DROP CONSTRAINT IF EXISTS ledger_postings_account_fkey;
ALTER TABLE ledger_journals DROP CONSTRAINT IF EXISTS ledger_journals_workspace_id_fkey;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_workspace_id_fkey;
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_workspace_id_fkey;
