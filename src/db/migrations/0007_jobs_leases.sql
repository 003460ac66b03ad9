-- Jobs: a lease token fences a worker whose lease ran out (its late outcome is ignored), and a job
-- that keeps failing is parked (failed_at, with done_at so it leaves the due index) instead of being
-- retried for ever; the sweeps that own each kind decide what a parked job means for its payment.
ALTER TABLE jobs ADD COLUMN lease_token uuid;
ALTER TABLE jobs ADD COLUMN failed_at timestamptz;
