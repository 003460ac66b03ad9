-- Reconciliation of the PIX books with the PSP's records (docs/operations.md, Reconciliation).
-- One run is one comparison of a window in one environment; it is stored as a row per workspace it
-- found PIX of, all sharing the run's id, so each workspace reads its own findings on its own shard.
-- What matches no workspace (a PIX the PSP holds and no charge or key of ours explains) is kept under
-- the nil workspace id, which no caller has: the operator reads it with `lastro reconcile`.
CREATE TABLE reconciliation_runs (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  window_from timestamptz NOT NULL,
  window_to timestamptz NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('daily', 'on_demand', 'cli')),
  psp_pix integer NOT NULL,
  transfers integer NOT NULL,
  findings integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX reconciliation_runs_list_idx ON reconciliation_runs (workspace_id, environment, id DESC);
-- One daily run a day per workspace and environment, whichever worker stores it first.
CREATE UNIQUE INDEX reconciliation_runs_daily_idx ON reconciliation_runs (workspace_id, environment, window_from)
  WHERE trigger = 'daily';

CREATE TABLE reconciliation_findings (
  workspace_id uuid NOT NULL,
  run_id uuid NOT NULL,
  id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN (
    'missing_pix', 'amount_mismatch', 'unknown_to_psp', 'return_not_reflected', 'status_mismatch')),
  end_to_end_id text,
  payment_id uuid,
  -- Lastro's amount and status, then the PSP's (null where one side has none).
  expected_minor bigint,
  found_minor bigint,
  expected_status text,
  found_status text,
  detail text NOT NULL,
  PRIMARY KEY (workspace_id, run_id, id),
  FOREIGN KEY (workspace_id, run_id) REFERENCES reconciliation_runs (workspace_id, id)
);
