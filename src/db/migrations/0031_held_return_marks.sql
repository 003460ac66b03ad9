-- Returns of held Pix made before their cash-in and refund were marked held_return (0026): a cash-in
-- of a held Pix is a return's unless the Pix was assigned to it (assigned is final), and the refund
-- the return made of it is marked too. Unmarked, a failed one's money, back in suspense, reads to
-- verify as the party's, and its cash-in could be refunded by the default party.
UPDATE payments p SET metadata = p.metadata || '{"held_return": true}'::jsonb
 WHERE p.kind = 'pix_cash_in' AND p.metadata ? 'unassigned_pix_id' AND NOT p.metadata ? 'held_return'
   AND NOT EXISTS (SELECT 1 FROM pix_unassigned u
                    WHERE u.workspace_id = p.workspace_id AND u.status = 'assigned' AND u.payment_id = p.id);

UPDATE payments r
   SET metadata = r.metadata || jsonb_build_object('unassigned_pix_id', c.metadata -> 'unassigned_pix_id', 'held_return', true)
  FROM payments c
 WHERE r.kind = 'pix_refund' AND NOT r.metadata ? 'held_return'
   AND r.description = 'Return of a PIX received without a charge'
   AND c.workspace_id = r.workspace_id AND c.id = r.related_payment_id
   AND c.kind = 'pix_cash_in' AND c.metadata ? 'held_return';
