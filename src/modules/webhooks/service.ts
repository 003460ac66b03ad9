import { randomBytes } from 'node:crypto';
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Caller, Deps } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { getEvent, uuidv7Floor } from '../events/service.ts';
import {
  DELIVERY_COLUMNS,
  type DeliveryRow,
  deliveryView,
  disableEndpoint,
  ENDPOINT_COLUMNS,
  type EndpointRow,
  endpointView,
  failPendingDeliveries,
  findEndpoint,
} from './repo.ts';
import { LOGGED_BODY_CHARS } from './schemas.ts';
import { checkEndpointUrl, privateAllowed } from './url-policy.ts';
import { constantHeaders, deliveryBody } from './worker/prepare.ts';

/** Old and new secrets both sign for this long after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** A Standard Webhooks secret: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The secret `lastro listen` signs with, derived rather than stored: stable for a workspace and
 * environment across listeners and restarts (as the Stripe CLI's whsec is for an account), and
 * never one of an endpoint's.
 */
export function listenSession(ctx: Ctx) {
  const { workspaceId, environment } = ctx.caller;
  const key = ctx.deps.sealer.keyedHash('webhook-listen-secret', `${workspaceId}:${environment}`);
  return {
    secret: `whsec_${key.toString('base64')}`,
    workspace_id: workspaceId,
    environment,
    start_after: uuidv7Floor(Date.now()),
  };
}

const endpointUrl = (deps: Deps, caller: Caller, raw: string) =>
  checkEndpointUrl(
    raw,
    caller.environment,
    privateAllowed(caller.environment, deps.config.webhookAllowPrivate),
  );

const audit = (tx: Tx, ctx: Ctx, action: string, endpointId: string) =>
  auditAction(tx, ctx, action, { type: 'webhook_endpoint', id: endpointId });

export async function createEndpoint(
  tx: Tx,
  ctx: Ctx,
  input: { url: string; event_types?: string[]; description?: string },
) {
  const { deps, caller } = ctx;
  const url = endpointUrl(deps, caller, input.url);
  const secret = newWebhookSecret();
  const now = deps.clock.now();
  const { rows } = await tx.query<EndpointRow>(
    `INSERT INTO webhook_endpoints
       (workspace_id, id, environment, url, description, event_types, secret_enc, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${ENDPOINT_COLUMNS}`,
    [
      caller.workspaceId,
      newId(),
      caller.environment,
      url,
      input.description ?? null,
      input.event_types ?? ['*'],
      deps.sealer.seal(secret),
      now,
    ],
  );
  const endpoint = rows[0]!;
  await audit(tx, ctx, 'webhook_endpoint.created', endpoint.id);
  return { ...endpointView(endpoint), secret };
}

export async function listEndpoints(q: Queryable, ctx: Ctx, page: PageRequest) {
  const params: unknown[] = [ctx.caller.workspaceId, ctx.caller.environment];
  const { rows } = await q.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE workspace_id = $1 AND environment = $2 AND deleted_at IS NULL ${pageById(params, page)}`,
    params,
  );
  return rows.map(endpointView);
}

export async function getEndpoint(q: Queryable, ctx: Ctx, input: { id: string }) {
  const endpoint = await findEndpoint(q, ctx.caller, input.id);
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpointView(endpoint);
}

export async function updateEndpoint(
  tx: Tx,
  ctx: Ctx,
  input: {
    id: string;
    url?: string;
    event_types?: string[];
    description?: string | null;
    status?: 'enabled' | 'disabled';
  },
) {
  const { deps, caller } = ctx;
  const { id } = input;
  const endpoint = await findEndpoint(tx, caller, id, true);
  if (!endpoint) throw notFound('Webhook endpoint');
  const now = deps.clock.now();
  const url = input.url === undefined ? endpoint.url : endpointUrl(deps, caller, input.url);
  if (input.status === 'disabled') await disableEndpoint(tx, caller.workspaceId, id, 'disabled_by_user', now);
  const enabling = input.status === 'enabled' && endpoint.status === 'disabled';
  const { rows } = await tx.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET url = $3, event_types = $4, description = $5, updated_at = $6,
            status = CASE WHEN $7 THEN 'enabled' ELSE status END,
            disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
            failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END
      WHERE workspace_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [
      caller.workspaceId,
      id,
      url,
      input.event_types ?? endpoint.event_types,
      input.description === undefined ? endpoint.description : input.description,
      now,
      enabling,
    ],
  );
  await audit(tx, ctx, 'webhook_endpoint.updated', id);
  return endpointView(rows[0]!);
}

/** Deletes an endpoint (kept, hidden, so its deliveries stay in the log); what it had pending fails. */
export async function deleteEndpoint(tx: Tx, ctx: Ctx, input: { id: string }) {
  const { deps, caller } = ctx;
  const { id } = input;
  const endpoint = await findEndpoint(tx, caller, id, true);
  if (!endpoint) throw notFound('Webhook endpoint');
  const now = deps.clock.now();
  await tx.query(
    `UPDATE webhook_endpoints SET deleted_at = $3, status = 'disabled', disabled_reason = 'deleted', updated_at = $3
      WHERE workspace_id = $1 AND id = $2`,
    [caller.workspaceId, id, now],
  );
  await failPendingDeliveries(tx, caller.workspaceId, id, 'endpoint deleted', now);
  await audit(tx, ctx, 'webhook_endpoint.deleted', id);
  return { id, deleted: true as const };
}

/** A new secret; the old one keeps signing beside it for 24 h (a second rotation drops the oldest at once). */
export async function rotateSecret(tx: Tx, ctx: Ctx, input: { id: string }) {
  const { deps, caller } = ctx;
  const { id } = input;
  const endpoint = await findEndpoint(tx, caller, id, true);
  if (!endpoint) throw notFound('Webhook endpoint');
  const secret = newWebhookSecret();
  const now = deps.clock.now();
  const { rows } = await tx.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET previous_secret_enc = secret_enc, previous_secret_expires_at = $3, secret_enc = $4, updated_at = $5
      WHERE workspace_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [caller.workspaceId, id, new Date(now.getTime() + ROTATION_OVERLAP_MS), deps.sealer.seal(secret), now],
  );
  await audit(tx, ctx, 'webhook_endpoint.secret_rotated', id);
  return { ...endpointView(rows[0]!), secret };
}

export async function listDeliveries(
  q: Queryable,
  ctx: Ctx,
  query: PageRequest & { status?: string; event_type?: string; endpoint_id?: string },
) {
  const params: unknown[] = [
    ctx.caller.workspaceId,
    ctx.caller.environment,
    query.status ?? null,
    query.event_type ?? null,
    query.endpoint_id ?? null,
  ];
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
      WHERE workspace_id = $1 AND environment = $2
        AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR event_type = $4)
        AND ($5::uuid IS NULL OR endpoint_id = $5) ${pageById(params, query)}`,
    params,
  );
  return rows.map(deliveryView);
}

async function findDelivery(q: Queryable, caller: Caller, id: string) {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE workspace_id = $1 AND environment = $2 AND id = $3`,
    [caller.workspaceId, caller.environment, id],
  );
  if (!rows[0]) throw notFound('Webhook delivery');
  return rows[0];
}

/** The request a delivery's attempts send, as far as it is the same for all of them. */
async function loggedRequest(q: Queryable, ctx: Ctx, eventId: string) {
  const body = deliveryBody(await getEvent(q, ctx, { id: eventId }));
  return {
    headers: constantHeaders(eventId),
    body: body.slice(0, LOGGED_BODY_CHARS),
    body_truncated: body.length > LOGGED_BODY_CHARS,
  };
}

export async function getDelivery(q: Queryable, ctx: Ctx, input: { id: string }) {
  const { caller } = ctx;
  const { id } = input;
  const delivery = await findDelivery(q, caller, id);
  const { rows } = await q.query<{
    attempt: number;
    url: string;
    started_at: Date;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
  }>(
    `SELECT attempt, url, started_at, duration_ms, status_code, error FROM webhook_delivery_attempts
      WHERE workspace_id = $1 AND delivery_id = $2 ORDER BY started_at, attempt`,
    [caller.workspaceId, id],
  );
  return {
    ...deliveryView(delivery),
    request: await loggedRequest(q, ctx, delivery.event_id),
    attempt_history: rows.map((row) => ({ ...row, started_at: iso(row.started_at) })),
  };
}

/**
 * Queues one more attempt at once, whatever the delivery's status (a delivered one is sent again,
 * with the same webhook-id). Past the schedule's eight attempts a failure makes it failed again.
 */
export async function retryDelivery(tx: Tx, ctx: Ctx, input: { id: string }) {
  const { deps, caller } = ctx;
  const { id } = input;
  const delivery = await findDelivery(tx, caller, id);
  const { rows: endpoints } = await tx.query<{ status: string; deleted_at: Date | null; url: string }>(
    'SELECT status, deleted_at, url FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2',
    [caller.workspaceId, delivery.endpoint_id],
  );
  const endpoint = endpoints[0];
  if (!endpoint || endpoint.deleted_at)
    throw new AppError('invalid_state', 'The endpoint of this delivery was deleted.');
  if (endpoint.status !== 'enabled')
    throw new AppError('invalid_state', 'The endpoint of this delivery is disabled; enable it first.');
  const now = deps.clock.now();
  const { rows } = await tx.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3
      WHERE workspace_id = $1 AND id = $2 AND (locked_until IS NULL OR locked_until <= $3)
      RETURNING ${DELIVERY_COLUMNS}`,
    [caller.workspaceId, id, now],
  );
  // In flight right now: that attempt is the retry.
  return deliveryView(rows[0] ?? delivery);
}
