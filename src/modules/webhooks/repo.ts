import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';
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
