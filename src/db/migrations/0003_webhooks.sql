-- Webhooks: endpoints, one delivery per (event, subscribed endpoint) created in the event's own
-- transaction, and a row per delivery attempt. Every table leads with workspace_id.

-- A time-ordered UUID (version 7) made in SQL, so emitEvent can create every delivery with one
-- INSERT … SELECT and delivery ids still sort by creation like the ids made in the application.
CREATE FUNCTION lastro_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              placing substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;

CREATE TABLE webhook_endpoints (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  url text NOT NULL,
  description text,
  -- '{*}' subscribes to every event type, present and future.
  event_types text[] NOT NULL DEFAULT '{*}',
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  -- Signing secrets, sealed under the master key (they must be readable to sign).
  secret_enc text NOT NULL,
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  -- First failed attempt since the last success: five days of failures disable the endpoint.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (workspace_id, environment, id DESC)
  WHERE deleted_at IS NULL;
-- The dispatcher walks the enabled endpoints round-robin.
CREATE INDEX webhook_endpoints_enabled_idx ON webhook_endpoints (id)
  WHERE status = 'enabled' AND deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  workspace_id uuid NOT NULL,
  id uuid NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'live')),
  endpoint_id uuid NOT NULL,
  event_id uuid NOT NULL REFERENCES events (id),
  event_type text NOT NULL,
  -- The URL of the latest attempt (the endpoint's URL when the delivery was created, before any).
  url text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  next_attempt_at timestamptz,
  -- A dispatcher's claim: while locked_until is ahead, the attempt is in flight; lease_token fences a stale one.
  locked_until timestamptz,
  lease_token uuid,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, event_id, endpoint_id),
  FOREIGN KEY (workspace_id, endpoint_id) REFERENCES webhook_endpoints (workspace_id, id)
);
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (workspace_id, environment, id DESC);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (workspace_id, endpoint_id, next_attempt_at)
  WHERE status = 'pending';

CREATE TABLE webhook_delivery_attempts (
  workspace_id uuid NOT NULL,
  delivery_id uuid NOT NULL,
  id uuid NOT NULL,
  attempt integer NOT NULL,
  url text NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  PRIMARY KEY (workspace_id, delivery_id, id),
  FOREIGN KEY (workspace_id, delivery_id) REFERENCES webhook_deliveries (workspace_id, id)
);

CREATE INDEX events_type_idx ON events (workspace_id, environment, type, id DESC);
