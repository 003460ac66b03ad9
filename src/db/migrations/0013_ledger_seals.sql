-- Tamper evidence (issue 18): committed journals chained per workspace by the ledger sealer
-- (src/ledger/seal.ts), a background task, after they commit: the write path gains no lock and no
-- round trip. A link's hash covers its journal (header and postings) and the previous link's hash.
-- Links follow seal order, not journal id order: a journal that commits after a higher id was
-- sealed gets the next seq when the sealer finds it, so nothing committed is left out of the chain.
CREATE TABLE ledger_seals (
  workspace_id uuid NOT NULL,
  seq bigint NOT NULL,
  journal_id uuid NOT NULL, -- no foreign key: a missing journal is what verify reports
  hash text NOT NULL,
  sealed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, seq),
  UNIQUE (workspace_id, journal_id) -- a journal has one workspace, so this is one link per journal
);
-- The sealer's "not sealed yet" probes and newest-sealed lookup go by journal id alone.
CREATE INDEX ledger_seals_journal_idx ON ledger_seals (journal_id);

-- The last link of each workspace's chain; its row lock serialises sealers of one workspace.
CREATE TABLE ledger_seal_heads (
  workspace_id uuid PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL
);

CREATE TRIGGER ledger_seals_append_only BEFORE UPDATE OR DELETE ON ledger_seals
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_seals_no_truncate BEFORE TRUNCATE ON ledger_seals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
