-- Ledger (accounts, journals, postings, balances) and payment records.
--
-- Sign convention: every account's balance = Σ credits − Σ debits of its postings. A journal's postings
-- sum to zero per currency, so across all accounts of one currency the balances sum to zero as well:
-- a party's positive balance is matched by a negative system account (money the service holds for it).

-- An account is (workspace, environment, party, currency, kind) for a party, or a system account of one
-- environment (workspace and party NULL). Ids are derived from that key (src/ledger/accounts.ts), so the
-- hot path never looks an account up.
CREATE TABLE ledger_accounts (
  id uuid PRIMARY KEY,
  workspace_id uuid REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid,
  currency text NOT NULL,
  kind text NOT NULL,
  network text,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id),
  CHECK (
    (party_id IS NOT NULL AND workspace_id IS NOT NULL AND network IS NULL
      AND kind IN ('available', 'pending', 'locked', 'trading'))
    OR (party_id IS NULL AND workspace_id IS NULL
      AND kind IN ('pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory'))
  )
);
CREATE UNIQUE INDEX ledger_accounts_party_key ON ledger_accounts (workspace_id, environment, party_id, currency, kind)
  WHERE party_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system_key ON ledger_accounts (environment, kind, currency, coalesce(network, ''))
  WHERE party_id IS NULL;

-- One narrow row per account, updated in the transaction of its postings. The database itself refuses
-- an overdraft of a party account, whatever the code above it does.
CREATE TABLE ledger_balances (
  account_id uuid PRIMARY KEY REFERENCES ledger_accounts (id),
  non_negative boolean NOT NULL,
  balance bigint NOT NULL DEFAULT 0,
  CONSTRAINT ledger_balances_non_negative CHECK (NOT non_negative OR balance >= 0)
);

CREATE TABLE ledger_journals (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  reference_type text NOT NULL,
  reference_id text NOT NULL,
  posted_at timestamptz NOT NULL
);
CREATE INDEX ledger_journals_reference_idx ON ledger_journals (workspace_id, reference_type, reference_id);

-- Statement lines are the party-side postings; party, currency and kind are copied from the account so
-- the statement reads one index.
CREATE TABLE ledger_postings (
  id uuid PRIMARY KEY,
  journal_id uuid NOT NULL REFERENCES ledger_journals (id),
  account_id uuid NOT NULL REFERENCES ledger_accounts (id),
  workspace_id uuid,
  environment text NOT NULL,
  party_id uuid,
  currency text NOT NULL,
  kind text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('debit', 'credit')),
  amount bigint NOT NULL CHECK (amount > 0),
  posted_at timestamptz NOT NULL
);
CREATE INDEX ledger_postings_statement_idx ON ledger_postings (workspace_id, environment, posted_at DESC, id DESC)
  WHERE party_id IS NOT NULL;
CREATE INDEX ledger_postings_journal_idx ON ledger_postings (journal_id);

-- Journals and postings are written once: a correction is a new journal.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_journals_no_truncate BEFORE TRUNCATE ON ledger_journals
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Posts one journal in one round trip. The caller (src/ledger/ledger.ts, the only caller) has already
-- checked that the postings sum to zero per currency. Balances are changed one account at a time in
-- account-id order (a fixed order: two journals touching the same accounts cannot deadlock), each with
-- one conditional UPDATE, so a debit never reads then writes. When an account does not exist yet,
-- nothing is touched; when a debit cannot be covered, the changes already made are undone here and
-- nothing is written: the function returns the reason and the account, and the transaction stays
-- usable and clean.
-- Returns (outcome, failed_account): ('ok', NULL), ('insufficient', account) or ('missing', account).
CREATE FUNCTION ledger_post(
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
  -- Missing accounts are reported before any row is locked: the caller then creates them, and a
  -- transaction waiting on another's account insert never holds a balance lock the other one needs.
  SELECT u.id INTO failed_account
    FROM unnest(p_account_ids) AS u (id)
   WHERE NOT EXISTS (SELECT 1 FROM ledger_balances b WHERE b.account_id = u.id)
   LIMIT 1;
  IF failed_account IS NOT NULL THEN
    outcome := 'missing';
    RETURN;
  END IF;

  FOR change IN
    SELECT u.account_id AS id, sum(CASE WHEN u.direction = 'credit' THEN u.amount ELSE -u.amount END)::bigint AS delta
      FROM unnest(p_account_ids, p_directions, p_amounts) AS u (account_id, direction, amount)
     GROUP BY u.account_id
     ORDER BY u.account_id
  LOOP
    CONTINUE WHEN change.delta = 0;
    UPDATE ledger_balances b SET balance = b.balance + change.delta
     WHERE b.account_id = change.id AND (change.delta > 0 OR NOT b.non_negative OR b.balance >= -change.delta);
    IF NOT FOUND THEN
      outcome := 'insufficient';
      failed_account := change.id;
      UPDATE ledger_balances b SET balance = b.balance - d.delta
        FROM unnest(done_ids, done_deltas) AS d (id, delta)
       WHERE b.account_id = d.id;
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
    JOIN ledger_accounts a ON a.id = u.account_id
   ORDER BY u.n;
  outcome := 'ok';
  failed_account := NULL;
END;
$$;

-- Payment records: every field of the spec's Payment resource. Amounts are BIGINT minor units; the
-- exchange rate is a decimal string.
CREATE TABLE payments (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('pix_cash_in', 'pix_cash_out', 'pix_refund', 'crypto_send', 'crypto_deposit', 'rfq_settlement')),
  status text NOT NULL CHECK (status IN ('created', 'processing', 'completed', 'failed', 'expired', 'refunded')),
  amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
  currency text NOT NULL,
  fee_minor bigint NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),
  description text,
  provider_ref text,
  pix_qr_code text,
  pix_tx_id text,
  pix_txid text,
  pix_key text,
  to_address text,
  from_address text,
  network text,
  tx_hash text,
  failure_reason text,
  metadata jsonb NOT NULL DEFAULT '{}',
  idempotency_key text,
  counterparty jsonb,
  wallet_id uuid,
  source_currency text,
  target_currency text,
  exchange_rate text,
  quote_id uuid,
  related_payment_id uuid REFERENCES payments (id),
  expires_at timestamptz,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  FOREIGN KEY (workspace_id, party_id) REFERENCES parties (workspace_id, id)
);
CREATE INDEX payments_list_idx ON payments (workspace_id, environment, id DESC);
CREATE INDEX payments_party_idx ON payments (workspace_id, environment, party_id, id DESC);
CREATE INDEX payments_related_idx ON payments (related_payment_id) WHERE related_payment_id IS NOT NULL;
CREATE INDEX payments_open_idx ON payments (status, expires_at) WHERE status IN ('created', 'processing');
