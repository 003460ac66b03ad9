-- The service's role, for a deployment where the schema's owner (the role that runs
-- `lastro migrate`) is not the role `serve` and `worker` connect as. Run as the owner after every
-- migration; it is idempotent. The journals stay append-only through privileges alone, which is
-- what a Citus cluster needs (triggers on distributed tables are not supported there).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'lastro_app') THEN
    CREATE ROLE lastro_app LOGIN;
  END IF;
END
$$;
GRANT USAGE ON SCHEMA public TO lastro_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO lastro_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO lastro_app;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO lastro_app;
-- The journals: what was written stays written.
REVOKE UPDATE, DELETE, TRUNCATE
  ON ledger_journals, ledger_postings, audit_events, events, webhook_delivery_attempts
  FROM lastro_app;
-- The service reads which migrations ran; only the owner records them.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON schema_migrations FROM lastro_app;
