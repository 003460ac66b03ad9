-- A Pix held without a charge keeps what the PSP received (amount_minor, no longer shrunk) and, beside
-- it, each MED devolução the PSP made while it was held, once per devolução id: what is held is the
-- difference. When it is assigned or returned, its cash-in is of the whole amount and these returns are
-- applied to it as MED returns (pix_med_returns), so a later report of the same devolução finds it
-- there and moves nothing (docs/going-live.md, Pix without a charge).
CREATE TABLE pix_unassigned_returns (
  workspace_id uuid NOT NULL,
  unassigned_id uuid NOT NULL,
  return_id text NOT NULL,
  rtr_id text,
  natureza text NOT NULL CHECK (natureza IN ('MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO')),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, unassigned_id, return_id)
);

-- A refund's outcome finds the held Pix it returns by refund_id (lockUnassignedOfRefund), on every
-- failed refund of the workspace: without this index each was a scan of the workspace's held Pix.
CREATE INDEX pix_unassigned_refund_idx ON pix_unassigned (workspace_id, refund_id) WHERE refund_id IS NOT NULL;
