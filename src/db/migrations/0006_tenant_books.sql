-- Tenant-local books: the service's own accounts (PIX settlement, fee revenue, crypto custody, FX
-- inventory) become one set per workspace and environment instead of one row per environment shared by
-- every tenant. A journal then touches one workspace's rows only: no shared row caps the service at one
-- row's commit rate, one tenant's volume never reaches another's bookkeeping, and every ledger row has a
-- workspace to be distributed by. Service-wide totals are sums over workspaces.
--
-- The shared rows cannot go: postings reference them and journals are append-only. They stay, flagged
-- legacy_shared, and their balances move to the per-workspace accounts through reclassification
-- journals (one per workspace and environment), so after this migration each of them is at 0 and
-- nothing new can be posted to them.

ALTER TABLE ledger_accounts ADD COLUMN legacy_shared boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN ledger_accounts.legacy_shared IS
  'A system account shared by every workspace before migration 0006: kept for its postings, balance 0 since, never posted to again.';
UPDATE ledger_accounts SET legacy_shared = true WHERE workspace_id IS NULL;

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_shape CHECK (
  (party_id IS NOT NULL AND workspace_id IS NOT NULL AND network IS NULL AND NOT legacy_shared
    AND kind IN ('available', 'pending', 'locked', 'trading'))
  OR (party_id IS NULL AND workspace_id IS NOT NULL AND NOT legacy_shared
    AND kind IN ('pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory'))
  OR (party_id IS NULL AND workspace_id IS NULL AND legacy_shared
    AND kind IN ('pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory'))
);

DROP INDEX ledger_accounts_system_key;
CREATE UNIQUE INDEX ledger_accounts_system_key ON ledger_accounts (workspace_id, environment, kind, currency, coalesce(network, ''))
  WHERE party_id IS NULL AND NOT legacy_shared;
CREATE UNIQUE INDEX ledger_accounts_legacy_key ON ledger_accounts (environment, kind, currency, coalesce(network, ''))
  WHERE legacy_shared;

-- An account's id as src/ledger/accounts.ts derives it (accountId): the first 16 bytes of SHA-256 of
-- its key, shaped as a UUID of version 8. sha256() is built in since PostgreSQL 11 and in PGlite;
-- pgcrypto is not in PGlite. test/ledger/tenant-books-migration.test.ts checks both give the same id.
CREATE FUNCTION ledger_account_id(key text) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT encode(set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128), 'hex')::uuid
    FROM (SELECT substring(sha256(convert_to(key, 'UTF8')) FROM 1 FOR 16) AS h) AS hashed
$$;

-- The id of a workspace's system account; the key is accountKey's for a system account.
CREATE FUNCTION ledger_system_account_id(workspace_id uuid, environment text, kind text, currency text, network text)
RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT ledger_account_id(
    'system|' || lower(workspace_id::text) || '|' || environment || '|' || kind || '|' || currency || '|'
      || coalesce(network, ''))
$$;

-- Ids of the journals and postings written here are time-ordered (UUIDv7) like those written by the
-- service (src/platform/ids.ts); PostgreSQL 15 has no uuidv7().
CREATE FUNCTION pg_temp.reclass_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_byte(b, 6, (get_byte(b, 6) & 15) | 112), 'hex')::uuid
    FROM (SELECT overlay(uuid_send(gen_random_uuid())
                 PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                 FROM 1 FOR 6) AS b) AS bytes
$$;

-- Each workspace's share of each shared account: Σ credits − Σ debits of the postings of its journals
-- on that account. The shares of an account add up to its balance (the balance equals its postings).
CREATE TEMP TABLE reclass ON COMMIT DROP AS
SELECT j.workspace_id, a.environment, a.kind, a.currency, a.network, a.id AS legacy_id,
       ledger_system_account_id(j.workspace_id, a.environment, a.kind, a.currency, a.network) AS account_id,
       sum(CASE p.direction WHEN 'credit' THEN p.amount ELSE -p.amount END)::bigint AS share
  FROM ledger_postings p
  JOIN ledger_accounts a ON a.id = p.account_id AND a.legacy_shared
  JOIN ledger_journals j ON j.id = p.journal_id
 GROUP BY j.workspace_id, a.environment, a.kind, a.currency, a.network, a.id
HAVING sum(CASE p.direction WHEN 'credit' THEN p.amount ELSE -p.amount END) <> 0;

CREATE TEMP TABLE reclass_journals ON COMMIT DROP AS
SELECT workspace_id, environment, pg_temp.reclass_uuid7() AS journal_id
  FROM (SELECT DISTINCT workspace_id, environment FROM reclass ORDER BY workspace_id, environment) AS pairs;

INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network)
SELECT account_id, workspace_id, environment, NULL, currency, kind, network FROM reclass ORDER BY account_id
    ON CONFLICT DO NOTHING;
INSERT INTO ledger_balances (account_id, non_negative)
SELECT account_id, false FROM reclass ORDER BY account_id
    ON CONFLICT DO NOTHING;

INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
SELECT journal_id, workspace_id, environment, 'reclassification', '0006_tenant_books', now()
  FROM reclass_journals ORDER BY journal_id;

-- Two postings per account moved: the shared account gets the opposite of the share, the workspace's
-- own account the share. Each pair sums to zero, so every journal balances per currency.
INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, party_id, currency, kind,
                             direction, amount, posted_at)
SELECT pg_temp.reclass_uuid7(), m.journal_id, m.account_id, m.account_workspace, m.environment, NULL, m.currency,
       m.kind, m.direction, m.amount, now()
  FROM (
    SELECT rj.journal_id, r.legacy_id AS account_id, NULL::uuid AS account_workspace, r.environment, r.currency,
           r.kind, CASE WHEN r.share > 0 THEN 'debit' ELSE 'credit' END AS direction, abs(r.share) AS amount,
           r.legacy_id AS sort_account, 0 AS side
      FROM reclass r JOIN reclass_journals rj USING (workspace_id, environment)
    UNION ALL
    SELECT rj.journal_id, r.account_id, r.workspace_id, r.environment, r.currency,
           r.kind, CASE WHEN r.share > 0 THEN 'credit' ELSE 'debit' END, abs(r.share),
           r.legacy_id, 1
      FROM reclass r JOIN reclass_journals rj USING (workspace_id, environment)
  ) AS m
 ORDER BY m.journal_id, m.sort_account, m.side;

UPDATE ledger_balances b SET balance = b.balance - moved.total
  FROM (SELECT legacy_id, sum(share)::bigint AS total FROM reclass GROUP BY legacy_id) AS moved
 WHERE b.account_id = moved.legacy_id;
UPDATE ledger_balances b SET balance = b.balance + r.share
  FROM reclass r
 WHERE b.account_id = r.account_id;

-- A shared account left off 0 means its balance did not equal its postings before: stop here, nothing
-- of this migration is kept.
DO $$
DECLARE
  left_over uuid;
BEGIN
  SELECT a.id INTO left_over
    FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
   WHERE a.legacy_shared AND b.balance <> 0
   LIMIT 1;
  IF left_over IS NOT NULL THEN
    RAISE EXCEPTION '0006_tenant_books: shared account % is not at 0 after reclassification', left_over;
  END IF;
END;
$$;

DROP FUNCTION pg_temp.reclass_uuid7();

-- From here on every posting names an account of a workspace (postings copy the account's workspace), so
-- nothing can be posted to a shared account again. NOT VALID: the shared accounts' old postings stay.
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_workspace_required CHECK (workspace_id IS NOT NULL) NOT VALID;
