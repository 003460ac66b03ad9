-- A job names the record it works on (a payment, for the transfer jobs) in a column, so sweeps find a
-- payment's jobs through an index instead of reading JSON payloads.
ALTER TABLE jobs ADD COLUMN subject_id text;
UPDATE jobs SET subject_id = payload->>'paymentId' WHERE payload ? 'paymentId';
CREATE INDEX jobs_subject_idx ON jobs (subject_id) WHERE subject_id IS NOT NULL;
