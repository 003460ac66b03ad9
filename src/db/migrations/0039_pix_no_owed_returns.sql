-- pix_no_owed_returns: for the credits of an interleaved group-commit batch (sandbox cash-ins), one
-- statement at the batch's end asks whether any of its parties owes a MED return (the pix module,
-- src/modules/pix/med-returns.ts), where each credit asked for its own party's debts. A credit is
-- followed by paying down what its party owes; a batch that finds a debt errs here, and runs again
-- with a savepoint a request, where each credit reads its party's debts and pays them down.
CREATE OR REPLACE FUNCTION pix_no_owed_returns(p_workspace_ids uuid[], p_environments text[], p_party_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1
               FROM unnest(p_workspace_ids, p_environments, p_party_ids) AS u (workspace_id, environment, party_id)
               JOIN pix_med_returns r ON r.workspace_id = u.workspace_id AND r.environment = u.environment
                                     AND r.party_id = u.party_id AND r.outstanding_minor > 0) THEN
    RAISE EXCEPTION 'pix_no_owed_returns: a party of this batch owes a MED return; credit them one by one'
      USING ERRCODE = 'check_violation';
  END IF;
END;
$$;
