-- What a due-date charge asked on the day it was paid, written when it is paid: the payment then
-- holds that amount, and `lastro verify` sets the two side by side and recomputes the amount from the
-- terms on paid_on. Sandbox days are the workspace's sandbox clock's, which no other record keeps.
ALTER TABLE pix_due_charges ADD COLUMN paid_on date;
ALTER TABLE pix_due_charges ADD COLUMN amount_due_minor bigint CHECK (amount_due_minor > 0);

-- Charges paid before this column: the amount they were paid is the amount recorded; the day only for
-- live ones (their day is the real one), a sandbox one's clock at the time being unknown.
UPDATE pix_due_charges d SET amount_due_minor = p.amount_minor,
       paid_on = CASE WHEN d.environment = 'live'
                      THEN (p.completed_at AT TIME ZONE 'America/Sao_Paulo')::date END
  FROM payments p
 WHERE p.workspace_id = d.workspace_id AND p.id = d.payment_id AND p.status IN ('completed', 'refunded');
