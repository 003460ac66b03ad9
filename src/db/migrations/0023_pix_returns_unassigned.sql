-- Money the PIX rail moves without Lastro asking: a MED return the receiving PSP makes on a received
-- Pix, and a Pix to our key that names no charge of ours (docs/architecture.md, MED returns and the
-- party receivable; docs/going-live.md, Pix without a charge).

-- A MED return is a payment of its own kind, related to the charge it returns.
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN (
  'pix_cash_in', 'pix_cash_out', 'pix_refund', 'pix_med_return', 'crypto_send', 'crypto_deposit', 'rfq_settlement'));

-- What parties owe the service when a return took more than their balance held: a system account of
-- the workspace (it goes negative, an asset, as pix_settlement does), so no party balance ever does.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_shape;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_shape CHECK (
  (party_id IS NOT NULL AND network IS NULL AND NOT legacy_shared
    AND kind IN ('available', 'pending', 'locked', 'trading'))
  OR (party_id IS NULL AND kind IN ('pix_settlement', 'fee_revenue', 'crypto_custody', 'fx_inventory', 'party_receivable'))
);

-- One row per MED devolução the PSP made on one of our charges: its id (the PSP's) is unique per
-- charge, so however often it is reported it is applied once. `outstanding_minor` is what the party
-- still owes of it; its next credits pay the oldest first.
CREATE TABLE pix_med_returns (
  workspace_id uuid NOT NULL,
  payment_id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  party_id uuid NOT NULL,
  charge_id uuid NOT NULL,
  return_id text NOT NULL,
  rtr_id text,
  natureza text NOT NULL CHECK (natureza IN ('MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  shortfall_minor bigint NOT NULL CHECK (shortfall_minor >= 0 AND shortfall_minor <= amount_minor),
  outstanding_minor bigint NOT NULL CHECK (outstanding_minor >= 0 AND outstanding_minor <= shortfall_minor),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, payment_id),
  UNIQUE (workspace_id, charge_id, return_id)
);
CREATE INDEX pix_med_returns_owed_idx ON pix_med_returns (workspace_id, environment, party_id, created_at)
  WHERE outstanding_minor > 0;

-- A Pix received on our key without a txid of ours, held for the workspace that owns the key until it
-- is assigned to a party (a completed cash-in) or returned to the payer (a refund of that cash-in).
-- Nothing is credited while it waits: the money is at the PSP and in no one's balance.
CREATE TABLE pix_unassigned (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  end_to_end_id text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  payer_info text,
  status text NOT NULL CHECK (status IN ('unassigned', 'assigned', 'returned')),
  -- The cash-in it became (assigned, or returned: the refund's original).
  payment_id uuid,
  refund_id uuid,
  received_at timestamptz NOT NULL,
  resolved_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, environment, end_to_end_id)
);
CREATE INDEX pix_unassigned_list_idx ON pix_unassigned (workspace_id, environment, id DESC);
