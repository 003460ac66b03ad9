import type { Caller, Deps } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { EmittedEvent } from './emit.ts';
import { eventView } from './emit.ts';

export async function listEvents(
  deps: Deps,
  caller: Caller,
  query: { limit: number; cursor?: string; type?: string },
) {
  const { rows } = await deps.db.query<{ payload: EmittedEvent }>(
    `SELECT payload FROM events
      WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR id < $3) AND ($4::text IS NULL OR type = $4)
      ORDER BY id DESC LIMIT $5`,
    [caller.workspaceId, caller.environment, query.cursor ?? null, query.type ?? null, query.limit],
  );
  return rows.map((row) => eventView(row.payload));
}

export async function getEvent(deps: Deps, caller: Caller, id: string) {
  const { rows } = await deps.db.query<{ payload: EmittedEvent }>(
    'SELECT payload FROM events WHERE workspace_id = $1 AND environment = $2 AND id = $3',
    [caller.workspaceId, caller.environment, id],
  );
  if (!rows[0]) throw notFound('Event');
  return eventView(rows[0].payload);
}
