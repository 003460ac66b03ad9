-- Revisions of a PIX charge with a due date (BCB API Pix, PATCH /cobv/{txid}): revision counts them
-- as the PSP's cobv.revisao does; cancelled_at is when the receiver removed it (status
-- REMOVIDA_PELO_USUARIO_RECEBEDOR). Its payment becomes expired then, failure_reason 'cancelled',
-- since no money moved and it can no longer be paid.
ALTER TABLE pix_due_charges
  ADD COLUMN revision integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN updated_at timestamptz;
