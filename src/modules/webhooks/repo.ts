import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import type { EmittedEvent } from '../../platform/outbox.ts';
import { iso } from '../../platform/schema.ts';

export interface EndpointRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  url: string;
  description: string | null;
  event_types: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const ENDPOINT_COLUMNS =
  'workspace_id, id, environment, url, description, event_types, status, disabled_reason, secret_enc, previous_secret_enc, previous_secret_expires_at, failing_since, created_at, updated_at';

/** The API's view of an endpoint: never its secrets. */
export const endpointView = (row: EndpointRow) => ({
  id: row.id,
  workspace_id: row.workspace_id,
  environment: row.environment,
  url: row.url,
  description: row.description,
  event_types: row.event_types,
  status: row.status,
  disabled_reason: row.disabled_reason,
  previous_secret_expires_at: iso(row.previous_secret_expires_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  environment: Environment;
  event_id: string;
  event_type: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
}

export const DELIVERY_COLUMNS =
  'id, endpoint_id, workspace_id, environment, event_id, event_type, url, status, attempts, last_status_code, last_error, created_at, delivered_at, next_attempt_at';

export const deliveryView = (row: DeliveryRow) => ({
  ...row,
  created_at: iso(row.created_at),
  delivered_at: iso(row.delivered_at),
  next_attempt_at: iso(row.next_attempt_at),
});

export async function findEndpoint(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  id: string,
  lock = false,
): Promise<EndpointRow | undefined> {
  const { rows } = await q.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE workspace_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [scope.workspaceId, scope.environment, id],
  );
  return rows[0];
}

/**
 * Fails the endpoint's pending deliveries that are not in flight (an in-flight one settles when its
 * attempt is recorded, which sees the endpoint is no longer enabled).
 */
export async function failPendingDeliveries(
  q: Queryable,
  workspaceId: string,
  endpointId: string,
  error: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL
      WHERE workspace_id = $1 AND endpoint_id = $2 AND status = 'pending'
        AND (locked_until IS NULL OR locked_until <= $4)`,
    [workspaceId, endpointId, error, now],
  );
}

/** Disables an enabled endpoint (410, five days of failures, or the owner) and fails what it still had pending. */
export async function disableEndpoint(
  q: Queryable,
  workspaceId: string,
  endpointId: string,
  reason: 'gone' | 'failing' | 'disabled_by_user',
  now: Date,
): Promise<void> {
  // FOR UPDATE waits for transactions still inserting deliveries for this endpoint (their foreign
  // key holds a KEY SHARE lock, which a plain UPDATE would not wait for), so none is left pending.
  await q.query('SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2 FOR UPDATE', [
    workspaceId,
    endpointId,
  ]);
  const { rowCount } = await q.query(
    `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $3, updated_at = $4
      WHERE workspace_id = $1 AND id = $2 AND status = 'enabled'`,
    [workspaceId, endpointId, reason, now],
  );
  if (rowCount > 0)
    await failPendingDeliveries(q, workspaceId, endpointId, `endpoint disabled (${reason})`, now);
}

/** A due delivery as the dispatcher claims it: with its endpoint's address and secrets and its event. */
export interface DueDelivery {
  workspace_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  environment: Environment;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  payload: EmittedEvent;
}

/** What one claim asks for: see selectDueDeliveries. */
export interface DueQuery {
  now: Date;
  perEndpoint: number;
  skipEndpoints: string[];
  afterEndpoint: string;
  limit: number;
}

/** A delivery free to claim at $1 (now): pending, due, and under no lease. */
const CLAIMABLE =
  "status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)";

/**
 * Due deliveries, locked (FOR UPDATE SKIP LOCKED: another dispatcher's claim is skipped, not waited
 * for): enabled endpoints in round-robin order starting after `afterEndpoint`, at most `perEndpoint`
 * of each, none of the `skipEndpoints` (those already at their bound here), `limit` in all.
 */
export async function selectDueDeliveries(tx: Tx, due: DueQuery): Promise<DueDelivery[]> {
  const { rows } = await tx.query<DueDelivery>(
    `SELECT d.workspace_id, d.id, d.endpoint_id, d.event_id, d.attempts, e.environment, e.url,
            e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at, ev.payload
       FROM (SELECT workspace_id, id, environment, url, secret_enc, previous_secret_enc, previous_secret_expires_at
               FROM webhook_endpoints
              WHERE status = 'enabled' AND deleted_at IS NULL AND NOT (id = ANY ($3::uuid[]))
              ORDER BY id <= $4::uuid, id) e
      CROSS JOIN LATERAL (
             SELECT workspace_id, id, endpoint_id, event_id, attempts, next_attempt_at
               FROM webhook_deliveries
              WHERE workspace_id = e.workspace_id AND endpoint_id = e.id AND ${CLAIMABLE}
              ORDER BY next_attempt_at, id
              LIMIT $2
                FOR UPDATE SKIP LOCKED) d
       JOIN events ev ON ev.workspace_id = d.workspace_id AND ev.id = d.event_id
      LIMIT $5`,
    [due.now, due.perEndpoint, due.skipEndpoints, due.afterEndpoint, due.limit],
  );
  return rows;
}

/**
 * The deliveries selectDueDeliveries would claim, in its order, read without locks: on Citus, where
 * FOR UPDATE cannot span shards, this read goes to every shard and lockDueDeliveries then locks them
 * one workspace (one shard) at a time. The order is spelled out in full, as the coordinator merges
 * the shards' rows by it.
 */
export async function peekDueDeliveries(
  q: Queryable,
  due: DueQuery,
): Promise<{ workspace_id: string; id: string }[]> {
  const { rows } = await q.query<{ workspace_id: string; id: string }>(
    `SELECT d.workspace_id, d.id
       FROM webhook_endpoints e
      CROSS JOIN LATERAL (
             SELECT workspace_id, id, next_attempt_at
               FROM webhook_deliveries
              WHERE workspace_id = e.workspace_id AND endpoint_id = e.id AND ${CLAIMABLE}
              ORDER BY next_attempt_at, id
              LIMIT $2) d
      WHERE e.status = 'enabled' AND e.deleted_at IS NULL AND NOT (e.id = ANY ($3::uuid[]))
      ORDER BY e.id <= $4::uuid, e.id, d.next_attempt_at, d.id
      LIMIT $5`,
    [due.now, due.perEndpoint, due.skipEndpoints, due.afterEndpoint, due.limit],
  );
  return rows;
}

/**
 * Locks the given deliveries of one workspace that are still due at `now` and whose endpoint is
 * still enabled (SKIP LOCKED: those another claim holds are left out), with what sending them needs.
 * Every table is filtered on the workspace, so on Citus the statement runs on that workspace's shard.
 */
export async function lockDueDeliveries(
  tx: Tx,
  now: Date,
  workspaceId: string,
  deliveryIds: readonly string[],
): Promise<DueDelivery[]> {
  const { rows } = await tx.query<DueDelivery>(
    `SELECT d.workspace_id, d.id, d.endpoint_id, d.event_id, d.attempts, e.environment, e.url,
            e.secret_enc, e.previous_secret_enc, e.previous_secret_expires_at, ev.payload
       FROM (SELECT workspace_id, id, endpoint_id, event_id, attempts
               FROM webhook_deliveries
              WHERE workspace_id = $2 AND id = ANY ($3::uuid[]) AND ${CLAIMABLE}
                FOR UPDATE SKIP LOCKED) d
       JOIN webhook_endpoints e ON e.workspace_id = $2 AND e.id = d.endpoint_id
       JOIN events ev ON ev.workspace_id = $2 AND ev.id = d.event_id
      WHERE e.status = 'enabled' AND e.deleted_at IS NULL`,
    [now, workspaceId, deliveryIds],
  );
  return rows;
}

/** Leases deliveries to one claim until `lockedUntil`; only the holder of `token` may record them. */
export async function leaseDeliveries(
  tx: Tx,
  deliveries: readonly { workspace_id: string; id: string }[],
  lockedUntil: Date,
  token: string,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET locked_until = $3, lease_token = $4
      WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`,
    [deliveries.map((d) => d.workspace_id), deliveries.map((d) => d.id), lockedUntil, token],
  );
}

/**
 * leaseDeliveries for deliveries of one workspace, named in the statement: on Citus it then runs on
 * that workspace's shard, where the statement over several workspaces goes to every shard.
 */
export async function leaseWorkspaceDeliveries(
  tx: Tx,
  workspaceId: string,
  deliveryIds: readonly string[],
  lockedUntil: Date,
  token: string,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET locked_until = $3, lease_token = $4
      WHERE workspace_id = $1 AND id = ANY ($2::uuid[])`,
    [workspaceId, deliveryIds, lockedUntil, token],
  );
}

/** One attempt as the delivery log shows it. */
export interface AttemptRow {
  workspaceId: string;
  deliveryId: string;
  attempt: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/** Adds attempts to the delivery log, in one statement. */
export async function insertAttempts(q: Queryable, rows: readonly AttemptRow[]): Promise<void> {
  const column = <T>(pick: (row: AttemptRow) => T) => rows.map(pick);
  await q.query(
    `INSERT INTO webhook_delivery_attempts
       (workspace_id, delivery_id, id, attempt, url, started_at, duration_ms, status_code, error)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::timestamptz[],
                          $7::int[], $8::int[], $9::text[])`,
    [
      column((r) => r.workspaceId),
      column((r) => r.deliveryId),
      column(() => newId()),
      column((r) => r.attempt),
      column((r) => r.url),
      column((r) => r.startedAt.toISOString()),
      column((r) => r.durationMs),
      column((r) => r.statusCode),
      column((r) => r.error),
    ],
  );
}

/** Endpoints that answered are healthy again: their failing streaks end. */
export async function clearEndpointsFailing(
  q: Queryable,
  endpoints: readonly { workspaceId: string; endpointId: string }[],
): Promise<void> {
  await q.query(
    `UPDATE webhook_endpoints SET failing_since = NULL
      WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[])) AND failing_since IS NOT NULL`,
    [endpoints.map((e) => e.workspaceId), endpoints.map((e) => e.endpointId)],
  );
}

/** Starts an enabled endpoint's failing streak unless one runs; returns when the streak began. */
export async function markEndpointFailing(
  q: Queryable,
  workspaceId: string,
  endpointId: string,
  now: Date,
): Promise<Date | undefined> {
  const { rows } = await q.query<{ failing_since: Date }>(
    `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $3)
      WHERE workspace_id = $1 AND id = $2 AND status = 'enabled' RETURNING failing_since`,
    [workspaceId, endpointId, now],
  );
  return rows[0]?.failing_since;
}

/** Where an attempt leaves its delivery. */
export interface DeliveryStep {
  workspaceId: string;
  deliveryId: string;
  leaseToken: string;
  url: string;
  statusCode: number | null;
  error: string | null;
  status: 'delivered' | 'failed' | 'pending';
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * Moves deliveries to their next step and ends their leases, in one statement. The lease token
 * fences off a worker whose lease ran out; a delivery whose endpoint was disabled or deleted
 * meanwhile fails instead of waiting for ever.
 */
export async function settleDeliveries(q: Queryable, steps: readonly DeliveryStep[]): Promise<void> {
  const column = <T>(pick: (step: DeliveryStep) => T) => steps.map(pick);
  await q.query(
    `UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, url = u.url, last_status_code = u.code, last_error = u.error,
            status = CASE WHEN u.status = 'pending' AND (e.status <> 'enabled' OR e.deleted_at IS NOT NULL)
                          THEN 'failed' ELSE u.status END,
            next_attempt_at = CASE WHEN u.status = 'pending' AND e.status = 'enabled' AND e.deleted_at IS NULL
                                   THEN u.next_at END,
            delivered_at = CASE WHEN u.status = 'delivered' THEN u.at ELSE d.delivered_at END,
            locked_until = NULL, lease_token = NULL
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::int[], $6::text[], $7::text[],
                   $8::timestamptz[], $9::timestamptz[])
              AS u(workspace_id, id, token, url, code, error, status, next_at, at),
            webhook_endpoints e
      WHERE d.workspace_id = u.workspace_id AND d.id = u.id AND d.lease_token = u.token
        AND e.workspace_id = d.workspace_id AND e.id = d.endpoint_id`,
    [
      column((s) => s.workspaceId),
      column((s) => s.deliveryId),
      column((s) => s.leaseToken),
      column((s) => s.url),
      column((s) => s.statusCode),
      column((s) => s.error),
      column((s) => s.status),
      column((s) => s.nextAttemptAt?.toISOString() ?? null),
      column((s) => s.at.toISOString()),
    ],
  );
}
