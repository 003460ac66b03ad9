-- Notifications a live PIX PSP sent to POST /v1/psp/pix/notifications (issue 15): every item is
-- recorded, whether it moved money or not, so an operator can see what arrived and why it did nothing.
CREATE TABLE psp_notifications (
  id uuid PRIMARY KEY,
  provider text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'payout', 'unknown', 'malformed')),
  -- The PSP's id for the item: endToEndId of a PIX received, devolução id, idEnvio.
  reference text,
  -- settled (money moved now), duplicate, pending (still processing at the PSP), unmatched (no such
  -- payment of ours), unconfirmed (the PSP's API does not say so), rejected (our rules refused it), malformed.
  outcome text NOT NULL,
  payment_id uuid,
  -- A settled charge holds 'charge:<endToEndId>': the same PIX can never credit twice.
  dedupe_key text UNIQUE,
  -- The item as received, JSON text (jsonb refuses \u0000, which a hostile body may carry).
  payload text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX psp_notifications_payment_idx ON psp_notifications (payment_id) WHERE payment_id IS NOT NULL;
CREATE INDEX psp_notifications_received_idx ON psp_notifications (received_at);
