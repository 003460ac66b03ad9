-- ledger_post_journals: the journals of a group-commit batch's requests in one call, where each
-- request called ledger_post (migration 0037) for its own. A batch of eleven payouts of one merchant
-- moved that merchant's balance row eleven times, in eleven statements; it now moves it once.
--
-- The journals are taken in the order given, as if posted one after another: a debit is covered if
-- the balance before its journal (the balance now, plus every earlier journal's change) covers it.
-- It answers only 'all posted' or an error, and changes nothing when it errs: a missing or closed
-- account, a debit not covered, a balance or a change beyond bigint, or malformed arrays. Its caller
-- (src/ledger/journals-of-a-batch.ts) then posts the journals one by one, with ledger_post, where each
-- request gets its own answer. So it refuses whatever ledger_post might refuse, and more when in doubt.
--
-- A posting names its journal by position (1-based) in the journal arrays. Every writer of a
-- workspace's balances holds its gate first (migration 0018); the batch's prelude took them, and
-- they are taken again here, in the prelude's order (by key, src/ledger/gate.ts), which is then free.
CREATE OR REPLACE FUNCTION ledger_post_journals(
  p_journal_ids uuid[], p_workspace_ids uuid[], p_environments text[], p_reference_types text[],
  p_reference_ids text[], p_posted_ats timestamptz[],
  p_posting_journals int[], p_posting_ids uuid[], p_account_ids uuid[], p_directions text[], p_amounts bigint[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  journal_count int := coalesce(cardinality(p_journal_ids), 0);
  posting_count int := coalesce(cardinality(p_posting_ids), 0);
  refused uuid;
  moved_count bigint;
BEGIN
  IF journal_count = 0
     OR cardinality(p_workspace_ids) IS DISTINCT FROM journal_count
     OR cardinality(p_environments) IS DISTINCT FROM journal_count
     OR cardinality(p_reference_types) IS DISTINCT FROM journal_count
     OR cardinality(p_reference_ids) IS DISTINCT FROM journal_count
     OR cardinality(p_posted_ats) IS DISTINCT FROM journal_count
     OR cardinality(p_posting_journals) IS DISTINCT FROM posting_count
     OR cardinality(p_account_ids) IS DISTINCT FROM posting_count
     OR cardinality(p_directions) IS DISTINCT FROM posting_count
     OR cardinality(p_amounts) IS DISTINCT FROM posting_count
     OR array_position(p_journal_ids, NULL) IS NOT NULL OR array_position(p_workspace_ids, NULL) IS NOT NULL
     OR array_position(p_posted_ats, NULL) IS NOT NULL OR array_position(p_posting_journals, NULL) IS NOT NULL
     OR array_position(p_posting_ids, NULL) IS NOT NULL OR array_position(p_account_ids, NULL) IS NOT NULL
     OR array_position(p_amounts, NULL) IS NOT NULL
     OR 0 >= ANY (p_amounts) OR NOT p_directions <@ ARRAY['credit', 'debit']
     OR EXISTS (SELECT 1 FROM unnest(p_posting_journals) AS u (j) WHERE u.j NOT BETWEEN 1 AND journal_count)
     OR EXISTS (SELECT 1
                  FROM generate_series(1, journal_count) AS g (j)
                  LEFT JOIN unnest(p_posting_journals) AS u (j) ON u.j = g.j
                 GROUP BY g.j HAVING count(u.j) < 2) THEN
    RAISE EXCEPTION 'ledger_post_journals: each journal needs two postings or more, each with its account, a direction and an amount above 0'
      USING ERRCODE = 'check_violation';
  END IF;
  PERFORM pg_advisory_xact_lock(7466116, k)
     FROM (SELECT DISTINCT hashtext(w::text) AS k FROM unnest(p_workspace_ids) AS w ORDER BY k) AS gates;

  -- Each account's balance after each journal that moves it, in the journals' order: the first
  -- account found missing, closed, short or beyond bigint at any point refuses the whole call.
  SELECT r.id INTO refused
    FROM (SELECT d.ws, d.id, d.delta, sum(d.delta) OVER (PARTITION BY d.ws, d.id ORDER BY d.j) AS moved
            FROM (SELECT p_workspace_ids[u.j] AS ws, u.id, u.j,
                         sum(CASE WHEN u.direction = 'credit' THEN u.amount::numeric ELSE -u.amount::numeric END) AS delta
                    FROM unnest(p_posting_journals, p_account_ids, p_directions, p_amounts) AS u (j, id, direction, amount)
                   GROUP BY 1, 2, 3) d) r
    LEFT JOIN ledger_balances b ON b.workspace_id = r.ws AND b.account_id = r.id
   WHERE b.account_id IS NULL OR b.closed
      OR r.delta NOT BETWEEN -9223372036854775807 AND 9223372036854775807
      OR b.balance + r.moved NOT BETWEEN -9223372036854775808 AND 9223372036854775807
      OR (b.non_negative AND b.balance + r.moved < 0)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_post_journals: account % refuses a journal of this batch; post them one by one', refused
      USING ERRCODE = 'check_violation';
  END IF;

  WITH deltas AS (
    SELECT p_workspace_ids[u.j] AS ws, u.id,
           sum(CASE WHEN u.direction = 'credit' THEN u.amount::numeric ELSE -u.amount::numeric END) AS delta
      FROM unnest(p_posting_journals, p_account_ids, p_directions, p_amounts) AS u (j, id, direction, amount)
     GROUP BY 1, 2
  ), moved AS (
    -- In numeric: the sum of a batch's changes may be beyond bigint where every balance on the way is not.
    UPDATE ledger_balances b SET balance = (b.balance + d.delta)::bigint
      FROM deltas d
     WHERE d.delta <> 0 AND b.workspace_id = d.ws AND b.account_id = d.id
    RETURNING b.account_id
  )
  SELECT count(*) INTO moved_count FROM moved;

  INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
  SELECT * FROM unnest(p_journal_ids, p_workspace_ids, p_environments, p_reference_types, p_reference_ids, p_posted_ats);
  INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, party_id, currency, kind,
                               direction, amount, posted_at)
  SELECT u.id, p_journal_ids[u.j], a.id, a.workspace_id, a.environment, a.party_id, a.currency, a.kind,
         u.direction, u.amount, p_posted_ats[u.j]
    FROM unnest(p_posting_journals, p_posting_ids, p_account_ids, p_directions, p_amounts) WITH ORDINALITY
         AS u (j, id, account_id, direction, amount, n)
    JOIN ledger_accounts a ON a.workspace_id = p_workspace_ids[u.j] AND a.id = u.account_id
   ORDER BY u.n;
END;
$$;
