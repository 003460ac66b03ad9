import type { Queryable } from '../../db/types.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { EmittedEvent } from '../../platform/outbox.ts';
import { eventView } from '../../platform/outbox.ts';
import { DEFAULT_PAGE_SIZE, type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';

export interface EventListQuery extends PageRequest {
  type?: string;
  after?: string;
  wait_ms?: number;
}

/** How often a waiting list looks for new events: the latency of `lastro listen`, at a query per tick. */
const POLL_INTERVAL_MS = 250;
/**
 * An event id is taken when its transaction writes it, which may commit after a later one: the feed
 * after an id answers only events this much older than both now and the start of the oldest
 * transaction still open, so a reader that moves past an id never skips an event committed after it
 * was read. The margin covers the clocks of the hosts that take ids and of the database.
 */
export const SETTLE_MS = 1000;

/**
 * When the oldest transaction of another session of this database began (ms), or undefined: it may
 * hold an event whose id it took long ago. Sessions of another role show no start and are not
 * waited for, so every process of the service connects as the same role (or one in pg_read_all_stats).
 */
async function oldestOpenTransaction(q: Queryable): Promise<number | undefined> {
  const { rows } = await q.query<{ oldest_ms: number | null }>(
    `SELECT floor(extract(epoch FROM min(xact_start)) * 1000)::float8 AS oldest_ms FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows[0]?.oldest_ms ?? undefined;
}

/** The smallest UUIDv7 of a millisecond: every id taken at or after `ms` sorts at or above it. */
export function uuidv7Floor(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

export async function listEvents(
  q: Queryable,
  ctx: Ctx,
  query: EventListQuery,
  stop: () => boolean = () => false,
) {
  if (query.after === undefined) {
    if (query.wait_ms) throw invalidQuery('wait_ms', 'takes effect only with after');
    return newestEvents(q, ctx, query);
  }
  if (query.cursor !== undefined) throw invalidQuery('cursor', 'cannot be combined with after');
  const deadline = Date.now() + (query.wait_ms ?? 0);
  for (;;) {
    const events = await eventsAfter(q, ctx, { ...query, after: query.after });
    const left = deadline - Date.now();
    if (events.length > 0 || left <= 0 || stop()) return events;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_INTERVAL_MS, left)));
  }
}

const invalidQuery = (field: string, issue: string) =>
  new AppError('invalid_request', `${field} ${issue}.`, [{ field: `querystring.${field}`, issue }]);

async function newestEvents(q: Queryable, ctx: Ctx, query: EventListQuery) {
  const params: unknown[] = [ctx.caller.workspaceId, ctx.caller.environment, query.type ?? null];
  const { rows } = await q.query<{ payload: EmittedEvent }>(
    `SELECT payload FROM events
      WHERE workspace_id = $1 AND environment = $2 AND ($3::text IS NULL OR type = $3) ${pageById(params, query)}`,
    params,
  );
  return rows.map((row) => eventView(row.payload));
}

async function eventsAfter(q: Queryable, ctx: Ctx, query: EventListQuery & { after: string }) {
  // UUIDv7 ids carry the wall clock of the process that took them, so the horizon is the wall clock
  // too, held back to the start of a transaction still open: a late commit is waited for, not skipped.
  const oldest = await oldestOpenTransaction(q);
  const horizon = uuidv7Floor(Math.min(Date.now(), oldest ?? Number.POSITIVE_INFINITY) - SETTLE_MS);
  const { rows } = await q.query<{ payload: EmittedEvent }>(
    `SELECT payload FROM events
      WHERE workspace_id = $1 AND environment = $2 AND ($3::text IS NULL OR type = $3)
        AND id > $4 AND id < $5
      ORDER BY id LIMIT $6`,
    [
      ctx.caller.workspaceId,
      ctx.caller.environment,
      query.type ?? null,
      query.after,
      horizon,
      query.limit ?? DEFAULT_PAGE_SIZE,
    ],
  );
  return rows.map((row) => eventView(row.payload));
}

export async function getEvent(q: Queryable, ctx: Ctx, input: { id: string }) {
  const { rows } = await q.query<{ payload: EmittedEvent }>(
    'SELECT payload FROM events WHERE workspace_id = $1 AND environment = $2 AND id = $3',
    [ctx.caller.workspaceId, ctx.caller.environment, input.id],
  );
  if (!rows[0]) throw notFound('Event');
  return eventView(rows[0].payload);
}
