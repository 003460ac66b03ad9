-- Keys that lead with the tenant: every tenant table's primary key, unique constraints and foreign keys
-- start with workspace_id. A distributed database (Citus, docs/scaling.md) enforces uniqueness and
-- foreign keys within one shard, so a key without the distribution column cannot be kept there; on one
-- PostgreSQL nothing a user sees changes, since every id is a UUIDv7 unique on its own anyway.
--
-- The ledger's pre-0006 shared accounts (legacy_shared, workspace NULL, balance 0 since 0006) are the
-- one data change. Their old postings cannot move (journals are append-only), so each becomes one row
-- per workspace that posted to it, under the same id: (workspace, id) is the account's key from here on.
-- Each row's balance is what that workspace's postings sum to (0: 0006 moved every share out), and the
-- row is closed, so nothing can be posted to it again. The postings that named no workspace (copied
-- from the shared account's NULL) get their journal's.

-- A posting outside its journal's workspace would break the new keys with a bare foreign-key error:
-- name it instead (lastro verify's cross_workspace_posting finds the same rows).
DO $$
DECLARE
  stray uuid;
BEGIN
  SELECT p.id INTO stray
    FROM ledger_postings p
    JOIN ledger_journals j ON j.id = p.journal_id
    JOIN ledger_accounts a ON a.id = p.account_id
   WHERE a.workspace_id IS DISTINCT FROM j.workspace_id AND NOT a.legacy_shared
   LIMIT 1;
  IF stray IS NOT NULL THEN
    RAISE EXCEPTION '0022_tenant_keys: posting % is in another workspace than its journal; fix it before upgrading', stray;
  END IF;
END;
$$;

-- Foreign keys that point at a key about to change go first; each comes back below on the new key.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_workspace_id_party_id_fkey;
ALTER TABLE kyc_cases DROP CONSTRAINT kyc_cases_workspace_id_party_id_fkey;
ALTER TABLE kyc_rfi_items DROP CONSTRAINT kyc_rfi_items_workspace_id_kyc_case_id_fkey;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_workspace_id_party_id_fkey;
ALTER TABLE ledger_balances DROP CONSTRAINT ledger_balances_account_id_fkey;
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_account_id_fkey;
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_journal_id_fkey;
ALTER TABLE payments DROP CONSTRAINT payments_related_payment_id_fkey;
ALTER TABLE payments DROP CONSTRAINT payments_workspace_id_party_id_fkey;
ALTER TABLE rfq_quotes DROP CONSTRAINT rfq_quotes_executed_payment_id_fkey;
ALTER TABLE rfq_quotes DROP CONSTRAINT rfq_quotes_workspace_id_party_id_fkey;
ALTER TABLE wallets DROP CONSTRAINT wallets_workspace_id_party_id_fkey;
ALTER TABLE crypto_deposits DROP CONSTRAINT crypto_deposits_payment_id_fkey;
ALTER TABLE crypto_deposits DROP CONSTRAINT crypto_deposits_wallet_id_fkey;
ALTER TABLE payment_links DROP CONSTRAINT payment_links_workspace_id_party_id_fkey;
ALTER TABLE payment_link_splits DROP CONSTRAINT payment_link_splits_workspace_id_party_id_fkey;
ALTER TABLE payment_link_payments DROP CONSTRAINT payment_link_payments_payment_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;

-- The legacy shared accounts, one row per workspace that posted to them.
ALTER TABLE ledger_postings DISABLE TRIGGER ledger_postings_append_only;
UPDATE ledger_postings p SET workspace_id = j.workspace_id
  FROM ledger_journals j
 WHERE j.id = p.journal_id AND p.workspace_id IS NULL;
ALTER TABLE ledger_postings ENABLE TRIGGER ledger_postings_append_only;
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_workspace_required;
ALTER TABLE ledger_postings ALTER COLUMN workspace_id SET NOT NULL;

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_pkey;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_shape;
DROP INDEX ledger_accounts_legacy_key;

CREATE TEMPORARY TABLE legacy_split ON COMMIT DROP AS
SELECT p.workspace_id, a.id, a.environment, a.currency, a.kind, a.network, a.created_at,
       sum(CASE p.direction WHEN 'credit' THEN p.amount ELSE -p.amount END)::bigint AS balance
  FROM ledger_accounts a JOIN ledger_postings p ON p.account_id = a.id
 WHERE a.workspace_id IS NULL
 GROUP BY p.workspace_id, a.id, a.environment, a.currency, a.kind, a.network, a.created_at;

DELETE FROM ledger_balances b USING ledger_accounts a WHERE a.id = b.account_id AND a.workspace_id IS NULL;
DELETE FROM ledger_accounts WHERE workspace_id IS NULL;
INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network, created_at, legacy_shared)
SELECT id, workspace_id, environment, NULL, currency, kind, network, created_at, true
  FROM legacy_split ORDER BY workspace_id, id;

ALTER TABLE ledger_accounts ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_shape CHECK (
  (party_id IS NOT NULL AND network IS NULL AND NOT legacy_shared
    AND kind IN ('available', 'pending', 'locked', 'trading'))
  OR (party_id IS NULL AND kind IN ('pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory'))
);
COMMENT ON COLUMN ledger_accounts.legacy_shared IS
  'A system account shared by every workspace before migration 0006, now one row per workspace that posted to it: kept for its postings, closed at balance 0.';

-- Balances: keyed by (workspace, account); a closed balance stays at 0, so a posting to it is refused
-- by the database whatever the code above it does.
ALTER TABLE ledger_balances ADD COLUMN workspace_id uuid;
ALTER TABLE ledger_balances ADD COLUMN closed boolean NOT NULL DEFAULT false;
ALTER TABLE ledger_balances DROP CONSTRAINT ledger_balances_pkey;
UPDATE ledger_balances b SET workspace_id = a.workspace_id FROM ledger_accounts a WHERE a.id = b.account_id;
INSERT INTO ledger_balances (workspace_id, account_id, non_negative, balance, closed)
SELECT workspace_id, id, false, balance, true FROM legacy_split ORDER BY workspace_id, id;
ALTER TABLE ledger_balances ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE ledger_balances ADD CONSTRAINT ledger_balances_pkey PRIMARY KEY (workspace_id, account_id);
ALTER TABLE ledger_balances ADD CONSTRAINT ledger_balances_account_fkey
  FOREIGN KEY (workspace_id, account_id) REFERENCES ledger_accounts (workspace_id, id);
ALTER TABLE ledger_balances ADD CONSTRAINT ledger_balances_closed_at_zero CHECK (NOT closed OR balance = 0);

-- Tenant keys: (workspace_id, id) everywhere.
ALTER TABLE parties DROP CONSTRAINT parties_pkey;
ALTER TABLE parties DROP CONSTRAINT parties_workspace_id_id_key;
ALTER TABLE parties ADD CONSTRAINT parties_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE kyc_cases DROP CONSTRAINT kyc_cases_pkey;
ALTER TABLE kyc_cases DROP CONSTRAINT kyc_cases_workspace_id_id_key;
ALTER TABLE kyc_cases ADD CONSTRAINT kyc_cases_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE kyc_rfi_items DROP CONSTRAINT kyc_rfi_items_pkey;
ALTER TABLE kyc_rfi_items ADD CONSTRAINT kyc_rfi_items_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE audit_events DROP CONSTRAINT audit_events_pkey;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_pkey;
ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_pkey;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_pkey PRIMARY KEY (workspace_id, id);
-- The sealer reads journals across workspaces in id (time) order: a plain index on id serves it.
CREATE INDEX ledger_journals_id_idx ON ledger_journals (id);
DROP INDEX ledger_postings_journal_idx;
CREATE INDEX ledger_postings_journal_idx ON ledger_postings (workspace_id, journal_id);
ALTER TABLE payments DROP CONSTRAINT payments_pkey;
ALTER TABLE payments ADD CONSTRAINT payments_pkey PRIMARY KEY (workspace_id, id);
-- What names a payment without its workspace (a PSP's callback echoing our id, a set-aside item's
-- key, operators' sweeps in id order) finds it through a plain index on id.
CREATE INDEX payments_id_idx ON payments (id);
DROP INDEX payments_related_idx;
CREATE INDEX payments_related_idx ON payments (workspace_id, related_payment_id) WHERE related_payment_id IS NOT NULL;
ALTER TABLE rfq_quotes DROP CONSTRAINT rfq_quotes_pkey;
ALTER TABLE rfq_quotes DROP CONSTRAINT rfq_quotes_executed_payment_id_key;
ALTER TABLE rfq_quotes ADD CONSTRAINT rfq_quotes_pkey PRIMARY KEY (workspace_id, id);
ALTER TABLE rfq_quotes ADD CONSTRAINT rfq_quotes_executed_payment_key UNIQUE (workspace_id, executed_payment_id);
ALTER TABLE wallets DROP CONSTRAINT wallets_pkey;
ALTER TABLE wallets ADD CONSTRAINT wallets_pkey PRIMARY KEY (workspace_id, id);
-- A custody address is unique across the service in kms_keys (one key, one address): the wallet row
-- need not repeat it across workspaces. The deposit watcher still finds a wallet by its address.
DROP INDEX wallets_custody_idx;
CREATE INDEX wallets_custody_idx ON wallets (environment, network, address) WHERE provider_ref IS NOT NULL;
ALTER TABLE whitelist_addresses DROP CONSTRAINT whitelist_addresses_pkey;
ALTER TABLE whitelist_addresses ADD CONSTRAINT whitelist_addresses_pkey PRIMARY KEY (workspace_id, id);

-- The foreign keys again, each on the workspace and the id.
ALTER TABLE api_keys ADD CONSTRAINT api_keys_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE kyc_cases ADD CONSTRAINT kyc_cases_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE kyc_rfi_items ADD CONSTRAINT kyc_rfi_items_case_fkey
  FOREIGN KEY (workspace_id, kyc_case_id) REFERENCES kyc_cases (workspace_id, id);
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_account_fkey
  FOREIGN KEY (workspace_id, account_id) REFERENCES ledger_accounts (workspace_id, id);
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_journal_fkey
  FOREIGN KEY (workspace_id, journal_id) REFERENCES ledger_journals (workspace_id, id);
ALTER TABLE payments ADD CONSTRAINT payments_related_payment_fkey
  FOREIGN KEY (workspace_id, related_payment_id) REFERENCES payments (workspace_id, id);
ALTER TABLE payments ADD CONSTRAINT payments_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE rfq_quotes ADD CONSTRAINT rfq_quotes_executed_payment_fkey
  FOREIGN KEY (workspace_id, executed_payment_id) REFERENCES payments (workspace_id, id);
ALTER TABLE rfq_quotes ADD CONSTRAINT rfq_quotes_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE wallets ADD CONSTRAINT wallets_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE crypto_deposits ADD CONSTRAINT crypto_deposits_payment_fkey
  FOREIGN KEY (workspace_id, payment_id) REFERENCES payments (workspace_id, id) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE crypto_deposits ADD CONSTRAINT crypto_deposits_wallet_fkey
  FOREIGN KEY (workspace_id, wallet_id) REFERENCES wallets (workspace_id, id);
ALTER TABLE payment_links ADD CONSTRAINT payment_links_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE payment_link_splits ADD CONSTRAINT payment_link_splits_party_fkey
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id);
ALTER TABLE payment_link_payments ADD CONSTRAINT payment_link_payments_payment_fkey
  FOREIGN KEY (workspace_id, payment_id) REFERENCES payments (workspace_id, id);
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_fkey
  FOREIGN KEY (workspace_id, event_id) REFERENCES events (workspace_id, id);

-- ledger_post as in 0018, each balance and account read by (workspace, account): one key, one row,
-- and a journal can only ever touch its own workspace's books.
CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id uuid,
  p_workspace_id uuid,
  p_environment text,
  p_reference_type text,
  p_reference_id text,
  p_posted_at timestamptz,
  p_posting_ids uuid[],
  p_account_ids uuid[],
  p_directions text[],
  p_amounts bigint[],
  OUT outcome text,
  OUT failed_account uuid
) LANGUAGE plpgsql AS $$
DECLARE
  change record;
  done_ids uuid[] := '{}';
  done_deltas bigint[] := '{}';
BEGIN
  -- The workspace's ledger gate comes before any balance: every writer of this workspace's balances
  -- takes it first, so two transactions never hold one balance each and wait for the other's. A
  -- group-commit batch takes the gates of all its workspaces at its start (src/ledger/gate.ts); taking
  -- it again here is free.
  PERFORM pg_advisory_xact_lock(7466116, hashtext(p_workspace_id::text));

  -- Missing accounts are reported before any row is locked: the caller then creates them, and a
  -- transaction waiting on another's account insert never holds a balance lock the other one needs.
  SELECT u.id INTO failed_account
    FROM unnest(p_account_ids) AS u (id)
   WHERE NOT EXISTS (SELECT 1 FROM ledger_balances b WHERE b.workspace_id = p_workspace_id AND b.account_id = u.id)
   LIMIT 1;
  IF failed_account IS NOT NULL THEN
    outcome := 'missing';
    RETURN;
  END IF;
  -- A closed account takes no posting at all, not even one its journal nets to zero on.
  SELECT u.id INTO failed_account
    FROM unnest(p_account_ids) AS u (id)
    JOIN ledger_balances b ON b.workspace_id = p_workspace_id AND b.account_id = u.id
   WHERE b.closed
   LIMIT 1;
  IF failed_account IS NOT NULL THEN
    RAISE EXCEPTION 'account % is closed', failed_account
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_balances_closed_at_zero';
  END IF;

  FOR change IN
    SELECT u.account_id AS id, sum(CASE WHEN u.direction = 'credit' THEN u.amount ELSE -u.amount END)::bigint AS delta
      FROM unnest(p_account_ids, p_directions, p_amounts) AS u (account_id, direction, amount)
     GROUP BY u.account_id
     ORDER BY u.account_id
  LOOP
    CONTINUE WHEN change.delta = 0;
    UPDATE ledger_balances b SET balance = b.balance + change.delta
     WHERE b.workspace_id = p_workspace_id AND b.account_id = change.id AND (change.delta > 0 OR NOT b.non_negative OR b.balance >= -change.delta);
    IF NOT FOUND THEN
      outcome := 'insufficient';
      failed_account := change.id;
      UPDATE ledger_balances b SET balance = b.balance - d.delta
        FROM unnest(done_ids, done_deltas) AS d (id, delta)
       WHERE b.workspace_id = p_workspace_id AND b.account_id = d.id;
      RETURN;
    END IF;
    done_ids := done_ids || change.id;
    done_deltas := done_deltas || change.delta;
  END LOOP;

  INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
  VALUES (p_journal_id, p_workspace_id, p_environment, p_reference_type, p_reference_id, p_posted_at);
  INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, party_id, currency, kind,
                               direction, amount, posted_at)
  SELECT u.id, p_journal_id, a.id, a.workspace_id, a.environment, a.party_id, a.currency, a.kind,
         u.direction, u.amount, p_posted_at
    FROM unnest(p_posting_ids, p_account_ids, p_directions, p_amounts) WITH ORDINALITY AS u (id, account_id, direction, amount, n)
    JOIN ledger_accounts a ON a.workspace_id = p_workspace_id AND a.id = u.account_id
   ORDER BY u.n;
  outcome := 'ok';
  failed_account := NULL;
END;
$$;
