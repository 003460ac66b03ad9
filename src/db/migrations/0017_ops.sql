-- /metrics reads parked jobs by kind at every scrape: an index over the parked ones only, so the
-- count does not read every finished job.
CREATE INDEX jobs_parked_idx ON jobs (kind) WHERE failed_at IS NOT NULL;

-- Keys lead with workspace_id (docs/scaling.md): a link's slug is unique across workspaces through
-- the global registry (payment_link_slugs, whose row names the one link), so the link table itself
-- needs it unique only within its workspace, which a table distributed by workspace can enforce.
ALTER TABLE payment_links DROP CONSTRAINT payment_links_slug_key;
ALTER TABLE payment_links ADD CONSTRAINT payment_links_workspace_slug_key UNIQUE (workspace_id, slug);
