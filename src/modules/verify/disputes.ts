/**
 * The checks of `lastro verify` over disputes' holds (src/modules/disputes): a dispute's journals
 * (reference_type 'dispute') only move its party's BRL between available and locked, and hold in
 * locked exactly held_minor while it is open or under review, nothing once closed. Read-only.
 */
const signed = `CASE p.direction WHEN 'credit' THEN p.amount ELSE -p.amount END`;

export const DISPUTE_INVARIANTS: Record<string, string> = {
  dispute_journal: `SELECT j.id AS subject, 'journal of dispute ' || j.reference_id || ' without its dispute' AS detail
      FROM ledger_journals j
     WHERE j.reference_type = 'dispute' AND NOT EXISTS (SELECT 1 FROM disputes d
             WHERE d.id::text = j.reference_id AND d.workspace_id = j.workspace_id AND d.environment = j.environment)`,
  dispute_hold: `SELECT d.id::text AS subject,
           'dispute ' || d.status || ' holding ' || d.held_minor || ': its journals net locked ' || n.locked
           || ', available ' || n.available || ', ' || n.other || ' postings elsewhere' AS detail
      FROM disputes d, LATERAL (
        SELECT coalesce(sum(${signed}) FILTER (WHERE p.party_id = d.party_id AND p.kind = 'locked' AND p.currency = 'BRL'), 0) AS locked,
               coalesce(sum(${signed}) FILTER (WHERE p.party_id = d.party_id AND p.kind = 'available' AND p.currency = 'BRL'), 0) AS available,
               count(*) FILTER (WHERE p.party_id IS DISTINCT FROM d.party_id OR p.currency <> 'BRL'
                                   OR p.kind NOT IN ('locked', 'available')) AS other
          FROM ledger_journals j JOIN ledger_postings p ON p.workspace_id = j.workspace_id AND p.journal_id = j.id
         WHERE j.workspace_id = d.workspace_id AND j.environment = d.environment
           AND j.reference_type = 'dispute' AND j.reference_id = d.id::text) n
     WHERE n.locked <> CASE WHEN d.status IN ('open', 'under_review') THEN d.held_minor ELSE 0 END
        OR n.available <> -n.locked OR n.other > 0`,
};
