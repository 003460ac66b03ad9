-- The daily report sums a workspace's settled payments by the day they completed; without this it
-- read every payment the workspace ever had to find a fortnight's. Partial: only the statuses the
-- report counts, so open charges do not grow it.
CREATE INDEX payments_completed_idx ON payments (workspace_id, environment, completed_at)
  WHERE status IN ('completed', 'refunded');
