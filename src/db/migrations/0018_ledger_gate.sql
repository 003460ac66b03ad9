-- The ledger gate: a transaction-scoped advisory lock per workspace, taken by ledger_post before it
-- touches a balance. A group-commit batch posts the journals of many requests in one transaction,
-- request by request, so it cannot lock balances in one sorted order; a write outside the batch (the
-- worker's settlement, an RFQ execute, a crypto send) that locked one of them first could then wait on
-- the batch while the batch waits on it. With every writer queueing on the gate first, one of them
-- simply waits for the other to commit. The key (7466116, hashtext(workspace id)) is also built by
-- src/ledger/gate.ts: keep the two the same.

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
