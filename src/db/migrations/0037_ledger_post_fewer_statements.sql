-- ledger_post with fewer statements inside it: one read finds the first thing wrong with a journal
-- (a missing or closed account, a debit its balance cannot cover, a balance that would leave bigint),
-- where three reads and an ordered loop of checked UPDATEs did; then one UPDATE moves every balance
-- (was one per account). Each statement a plpgsql function runs pays an executor start and end; a
-- three-posting cash-in ran nine of them, and runs five.
--
-- What it answers is what the ordered loop answered (src/ledger/ledger-post-answers-as-the-ordered-loop.test.ts
-- compares the two): 'missing' with the first missing account in the journal's order, else the
-- closed-account error, else the error of a net change beyond bigint, else, taking accounts by id,
-- 'insufficient' with the first whose debit its balance cannot cover, or the error of the first
-- balance that would leave bigint (a net of exactly -2^63 is refused as one), and no balance changed;
-- else 'ok'. (The loop read its accounts ten
-- at a time, so a net beyond bigint on an eleventh account behind a short one went unseen; and whether
-- it refused a system account's net of exactly -2^63 depended on its plan: both are refused now.) A journal of fewer than two
-- postings, or a posting without an account, is refused: no key ties postings to their journal now.
-- The UPDATE takes its rows in no set order and checks nothing: every writer of a workspace's balances
-- holds that workspace's gate first (taken below, migration 0018; on Citus inside a transaction, where
-- the function runs on the coordinator), and a journal touches one workspace's balances only.
CREATE OR REPLACE FUNCTION ledger_post(
  p_journal_id uuid, p_workspace_id uuid, p_environment text, p_reference_type text, p_reference_id text,
  p_posted_at timestamptz, p_posting_ids uuid[], p_account_ids uuid[], p_directions text[], p_amounts bigint[],
  OUT outcome text, OUT failed_account uuid)
LANGUAGE plpgsql AS $$
DECLARE
  problem text;
  moved_count bigint;
BEGIN
  -- Postings carry no key to their journal (migration 0036): a journal is written here with its
  -- postings or not at all, and a journal has two postings at least, each naming an account.
  IF coalesce(cardinality(p_account_ids), 0) < 2
     OR cardinality(p_posting_ids) IS DISTINCT FROM cardinality(p_account_ids)
     OR cardinality(p_directions) IS DISTINCT FROM cardinality(p_account_ids)
     OR cardinality(p_amounts) IS DISTINCT FROM cardinality(p_account_ids)
     OR array_position(p_account_ids, NULL) IS NOT NULL OR array_position(p_amounts, NULL) IS NOT NULL
     OR 0 >= ANY (p_amounts) OR NOT p_directions <@ ARRAY['credit', 'debit'] THEN
    RAISE EXCEPTION 'a journal needs two postings or more, each with its account, a direction and an amount above 0'
      USING ERRCODE = 'check_violation';
  END IF;
  PERFORM pg_advisory_xact_lock(7466116, hashtext(p_workspace_id::text));

  -- The first thing wrong, in the order the answers take: a missing account (the first in the
  -- journal's order; nothing is locked yet, the caller creates it and calls again), then a closed one
  -- (a closed account takes no posting, not even one netting to zero), then a net change that is no
  -- bigint, then, by account id, a debit its balance cannot cover or a balance that would leave bigint.
  -- The gate is held, so no other transaction moves these balances between this read and the UPDATE.
  SELECT d.id,
         CASE WHEN b.account_id IS NULL THEN 'missing'
              WHEN b.closed THEN 'closed'
              WHEN d.delta NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN 'too large'
              -- the loop's check negated the debit, which the lowest bigint has no room for
              WHEN d.delta = -9223372036854775808 THEN 'overflow'
              WHEN d.delta < 0 AND b.non_negative AND b.balance < -d.delta THEN 'short'
              ELSE 'overflow' END
    INTO failed_account, problem
    FROM (SELECT u.id, min(u.n) AS n,
                 sum(CASE WHEN u.direction = 'credit' THEN u.amount::numeric ELSE -u.amount::numeric END) AS delta
            FROM unnest(p_account_ids, p_directions, p_amounts) WITH ORDINALITY AS u (id, direction, amount, n)
           GROUP BY u.id) d
    LEFT JOIN ledger_balances b ON b.workspace_id = p_workspace_id AND b.account_id = d.id
   WHERE b.account_id IS NULL OR b.closed
      OR d.delta NOT BETWEEN -9223372036854775808 AND 9223372036854775807
      OR (d.delta < 0 AND b.non_negative AND b.balance < -d.delta)
      OR d.delta = -9223372036854775808
      OR b.balance + d.delta NOT BETWEEN -9223372036854775808 AND 9223372036854775807
   ORDER BY CASE WHEN b.account_id IS NULL THEN 0 WHEN b.closed THEN 1
                 WHEN d.delta NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN 2 ELSE 3 END,
            CASE WHEN b.account_id IS NULL OR b.closed THEN d.n END, d.id
   LIMIT 1;
  IF problem = 'missing' THEN
    outcome := 'missing';
    RETURN;
  ELSIF problem = 'closed' THEN
    RAISE EXCEPTION 'account % is closed', failed_account
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_balances_closed_at_zero';
  ELSIF problem IN ('too large', 'overflow') THEN
    RAISE EXCEPTION 'bigint out of range' USING ERRCODE = 'numeric_value_out_of_range';
  ELSIF problem = 'short' THEN
    outcome := 'insufficient';
    RETURN;
  END IF;

  -- Every balance in one statement: each change is known to fit and to be covered. The changes are a
  -- CTE of their own: on Citus an UPDATE … FROM a subquery, planned generic, goes to every shard,
  -- while one from a CTE's result routes to the workspace's shard.
  WITH deltas AS (
    SELECT u.id, sum(CASE WHEN u.direction = 'credit' THEN u.amount ELSE -u.amount END)::bigint AS delta
      FROM unnest(p_account_ids, p_directions, p_amounts) AS u (id, direction, amount)
     GROUP BY u.id
  ), moved AS (
    UPDATE ledger_balances b SET balance = b.balance + d.delta
      FROM deltas d
     WHERE d.delta <> 0 AND b.workspace_id = p_workspace_id AND b.account_id = d.id
    RETURNING b.account_id
  )
  SELECT count(*) INTO moved_count FROM moved;

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
