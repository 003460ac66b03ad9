-- PIX disputes: a MED infraction notice on a PIX we received (docs/guides/disputes.md). While a
-- dispute is open its amount sits in the credited party's `locked` BRL (what `available` held of it,
-- held_minor; the rest is recorded, never borrowed), so no payout, conversion or crypto send can take
-- it; it closes as returned (the MED return flow takes the money) or rejected (the hold goes back).
CREATE TABLE disputes (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  payment_id uuid NOT NULL,
  -- The PSP's id of the infraction (Efí idInfracao); in sandbox one the simulator makes.
  infraction_id text NOT NULL,
  reason text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  held_minor bigint NOT NULL CHECK (held_minor >= 0 AND held_minor <= amount_minor),
  status text NOT NULL CHECK (status IN ('open', 'under_review', 'closed_returned', 'closed_rejected')),
  opened_at timestamptz NOT NULL,
  deadline_at timestamptz NOT NULL,
  defense_text text,
  defense_evidence text[],
  defended_at timestamptz,
  closed_at timestamptz,
  -- The pix_med_return payment a return made, when the books saw it through this dispute.
  return_payment_id uuid,
  -- The deadline_approaching notices already sent: '48h', '24h', '6h'.
  notices_sent text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, environment, infraction_id)
);
-- At most one dispute per payment is open (or under review) at a time.
CREATE UNIQUE INDEX disputes_one_open_per_payment ON disputes (workspace_id, payment_id)
  WHERE status IN ('open', 'under_review');
-- The deadline sweep reads the open disputes whose deadline comes near.
CREATE INDEX disputes_open_deadline_idx ON disputes (deadline_at) WHERE status = 'open';
CREATE INDEX disputes_list_idx ON disputes (workspace_id, environment, id);
