-- ledger_post_journals (migration 0038), the same answers for less of the server's work a call.
--
-- Its shape check was planned again on every call: it counted each journal's postings against
-- generate_series(1, journal_count), which a cached generic plan takes for a thousand rows, so the
-- plan cache kept a custom plan, built per call (65 µs of a 7-journal call's 700). The check now
-- groups the posting numbers it was given: each number named is a journal, with two postings or more,
-- and as many numbers as journals. Its generic plan then costs about what a custom one does, and the
-- plan cache keeps it (pg_stat_statements, track = all: planning 18 µs a cash-in before, none after).
--
-- The balance check, the balance update and both inserts were four statements of the function, each
-- started and ended by the executor (the inserts open every index of their table). They are now one
-- statement of data-modifying CTEs, run on one snapshot: the check reads the balances as they were
-- before the batch, and nothing is written when it refuses (every write is guarded by the refusal
-- being empty), so an amount beyond bigint is refused before the update's cast.
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
     -- Numbers within 1..journal_count, each with two postings or more, as many as the journals: then
     -- every journal has its postings.
     OR NOT coalesce((SELECT bool_and(n >= 2 AND j BETWEEN 1 AND journal_count) AND count(*) = journal_count
                        FROM (SELECT u.j, count(*) AS n FROM unnest(p_posting_journals) AS u (j) GROUP BY u.j) AS per_journal),
                     false) THEN
    RAISE EXCEPTION 'ledger_post_journals: each journal needs two postings or more, each with its account, a direction and an amount above 0'
      USING ERRCODE = 'check_violation';
  END IF;
  PERFORM pg_advisory_xact_lock(7466116, k)
     FROM (SELECT DISTINCT hashtext(w::text) AS k FROM unnest(p_workspace_ids) AS w ORDER BY k) AS gates;

  WITH per_journal AS (
    SELECT p_workspace_ids[u.j] AS ws, u.id, u.j,
           sum(CASE WHEN u.direction = 'credit' THEN u.amount::numeric ELSE -u.amount::numeric END) AS delta
      FROM unnest(p_posting_journals, p_account_ids, p_directions, p_amounts) AS u (j, id, direction, amount)
     GROUP BY 1, 2, 3
  ), refusal AS (
    -- Each account's balance after each journal that moves it, in the journals' order: the first
    -- account found missing, closed, short or beyond bigint at any point refuses the whole call.
    SELECT r.id
      FROM (SELECT d.ws, d.id, d.delta, sum(d.delta) OVER (PARTITION BY d.ws, d.id ORDER BY d.j) AS moved
              FROM per_journal d) r
      LEFT JOIN ledger_balances b ON b.workspace_id = r.ws AND b.account_id = r.id
     WHERE b.account_id IS NULL OR b.closed
        OR r.delta NOT BETWEEN -9223372036854775807 AND 9223372036854775807
        OR b.balance + r.moved NOT BETWEEN -9223372036854775808 AND 9223372036854775807
        OR (b.non_negative AND b.balance + r.moved < 0)
     LIMIT 1
  ), deltas AS (
    SELECT ws, id, sum(delta) AS delta FROM per_journal GROUP BY 1, 2
  ), moved AS (
    -- In numeric: the sum of a batch's changes may be beyond bigint where every balance on the way is not.
    UPDATE ledger_balances b SET balance = (b.balance + d.delta)::bigint
      FROM deltas d
     WHERE d.delta <> 0 AND b.workspace_id = d.ws AND b.account_id = d.id
       AND NOT EXISTS (SELECT 1 FROM refusal)
  ), journals AS (
    INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
    SELECT u.* FROM unnest(p_journal_ids, p_workspace_ids, p_environments, p_reference_types, p_reference_ids, p_posted_ats)
                    AS u (id, workspace_id, environment, reference_type, reference_id, posted_at)
     WHERE NOT EXISTS (SELECT 1 FROM refusal)
  ), postings AS (
    INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, party_id, currency, kind,
                                 direction, amount, posted_at)
    SELECT u.id, p_journal_ids[u.j], a.id, a.workspace_id, a.environment, a.party_id, a.currency, a.kind,
           u.direction, u.amount, p_posted_ats[u.j]
      FROM unnest(p_posting_journals, p_posting_ids, p_account_ids, p_directions, p_amounts) WITH ORDINALITY
           AS u (j, id, account_id, direction, amount, n)
      JOIN ledger_accounts a ON a.workspace_id = p_workspace_ids[u.j] AND a.id = u.account_id
     WHERE NOT EXISTS (SELECT 1 FROM refusal)
     ORDER BY u.n
  )
  SELECT id INTO refused FROM refusal;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_post_journals: account % refuses a journal of this batch; post them one by one', refused
      USING ERRCODE = 'check_violation';
  END IF;
END;
$$;
