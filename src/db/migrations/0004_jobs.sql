-- The job outbox: a money-moving write enqueues its follow-up (call a provider, poll a transfer) in
-- its own transaction; workers claim due jobs with FOR UPDATE SKIP LOCKED under a lease, so a worker
-- that dies mid-job leaves the job to be claimed again once the lease runs out. The lease token
-- fences a worker whose lease ran out (its late outcome is ignored); a job that keeps failing is
-- parked (failed_at, with done_at so it leaves the due index) and the sweep owning its kind decides.
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  lease_token uuid,
  last_error text,
  failed_at timestamptz,
  done_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE done_at IS NULL;
