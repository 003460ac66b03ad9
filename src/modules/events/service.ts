import type { Queryable } from '../../db/types.ts';
import { notFound } from '../../platform/errors.ts';
import type { EmittedEvent } from '../../platform/outbox.ts';
import { eventView } from '../../platform/outbox.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';

export async function listEvents(q: Queryable, ctx: Ctx, query: PageRequest & { type?: string }) {
  const params: unknown[] = [ctx.caller.workspaceId, ctx.caller.environment, query.type ?? null];
  const { rows } = await q.query<{ payload: EmittedEvent }>(
    `SELECT payload FROM events
      WHERE workspace_id = $1 AND environment = $2 AND ($3::text IS NULL OR type = $3) ${pageById(params, query)}`,
    params,
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
