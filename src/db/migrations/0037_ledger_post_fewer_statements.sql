-- ledger_post with fewer statements inside it: one read finds a missing or closed account (was two),
-- and one UPDATE moves every balance of the journal (was one per account). Each statement a plpgsql
-- function runs pays an executor start and end; a three-posting cash-in ran seven of them.
--
-- What it answers is unchanged: 'missing' with the first missing account in the journal's order,
-- else the closed-account error, else 'insufficient' with the lowest account id whose debit its
-- balance cannot cover (the one the ordered loop stopped at) and no balance changed, else 'ok'. The
-- UPDATE takes its rows in no set order, which is safe because every writer of a workspace's balances
-- holds that workspace's gate first (taken below, migration 0018), and a journal touches one
-- workspace's balances only.
CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id uuid, p_workspace_id uuid, p_environment text, p_reference_type text, p_reference_id text,
  p_posted_at timestamptz, p_posting_ids uuid[], p_account_ids uuid[], p_directions text[], p_amounts bigint[],
  OUT outcome text, OUT failed_account uuid)
LANGUAGE plpgsql AS $$
DECLARE
  is_closed boolean;
  wanted int;
  moved_ids uuid[];
  moved_deltas bigint[];
BEGIN
  -- Postings carry no key to their journal (migration 0036): a journal is written here with its
  -- postings or not at all, and a journal has two postings at least.
  IF coalesce(cardinality(p_account_ids), 0) < 2 THEN
    RAISE EXCEPTION 'a journal needs two postings or more' USING ERRCODE = 'check_violation';
  END IF;
  PERFORM pg_advisory_xact_lock(7466116, hashtext(p_workspace_id::text));

  -- A missing account is reported before any row is locked (the caller creates it and calls again),
  -- and before a closed one: a closed account takes no posting at all, not even one netting to zero.
  SELECT u.id, b.closed INTO failed_account, is_closed
    FROM unnest(p_account_ids) WITH ORDINALITY AS u (id, n)
    LEFT JOIN ledger_balances b ON b.workspace_id = p_workspace_id AND b.account_id = u.id
   WHERE b.account_id IS NULL OR b.closed
   ORDER BY b.account_id IS NULL DESC, u.n
   LIMIT 1;
  IF failed_account IS NOT NULL AND is_closed IS NULL THEN
    outcome := 'missing';
    RETURN;
  END IF;
  IF failed_account IS NOT NULL THEN
    RAISE EXCEPTION 'account % is closed', failed_account
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_balances_closed_at_zero';
  END IF;

  WITH deltas AS (
    SELECT u.account_id AS id, sum(CASE WHEN u.direction = 'credit' THEN u.amount ELSE -u.amount END)::bigint AS delta
      FROM unnest(p_account_ids, p_directions, p_amounts) AS u (account_id, direction, amount)
     GROUP BY u.account_id
  ), moved AS (
    UPDATE ledger_balances b SET balance = b.balance + d.delta
      FROM deltas d
     WHERE d.delta <> 0 AND b.workspace_id = p_workspace_id AND b.account_id = d.id
       AND (d.delta > 0 OR NOT b.non_negative OR b.balance >= -d.delta)
    RETURNING b.account_id, d.delta
  )
  SELECT (SELECT count(*) FROM deltas WHERE delta <> 0), array_agg(m.account_id), array_agg(m.delta)
    INTO wanted, moved_ids, moved_deltas
    FROM moved m;

  IF coalesce(cardinality(moved_ids), 0) < wanted THEN
    SELECT d.id INTO failed_account
      FROM (SELECT u.account_id AS id, sum(CASE WHEN u.direction = 'credit' THEN u.amount ELSE -u.amount END) AS delta
              FROM unnest(p_account_ids, p_directions, p_amounts) AS u (account_id, direction, amount)
             GROUP BY u.account_id) d
     WHERE d.delta <> 0 AND d.id <> ALL (coalesce(moved_ids, '{}'))
     ORDER BY d.id
     LIMIT 1;
    UPDATE ledger_balances b SET balance = b.balance - d.delta
      FROM unnest(moved_ids, moved_deltas) AS d (id, delta)
     WHERE b.workspace_id = p_workspace_id AND b.account_id = d.id;
    outcome := 'insufficient';
    RETURN;
  END IF;

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
