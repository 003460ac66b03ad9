-- A job names the record it works on (a payment, for the transfer jobs) in a column, so sweeps find a
-- payment's jobs through an index instead of reading JSON payloads.
ALTER TABLE jobs ADD COLUMN subject_id text;
UPDATE jobs SET subject_id = payload->>'paymentId' WHERE payload ? 'paymentId';
CREATE INDEX jobs_subject_idx ON jobs (subject_id) WHERE subject_id IS NOT NULL;

-- A job written without the column (by a process still running code from before this migration, in a
-- rolling deploy) still names its payment, so the sweeps that look jobs up by subject find it.
CREATE FUNCTION jobs_default_subject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.subject_id := coalesce(NEW.subject_id, NEW.payload->>'paymentId');
  RETURN NEW;
END;
$$;
CREATE TRIGGER jobs_default_subject BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_default_subject();
