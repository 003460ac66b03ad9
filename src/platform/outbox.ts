import type { CarriedWrite, Tx } from '../db/types.ts';
import type { Environment } from './environment.ts';
import { EVENT_TYPES, type EventType } from './event-types.ts';
import { newId } from './ids.ts';
import { withCounterpartyMasked } from './payer-document.ts';

export { EVENT_TYPES, type EventType };

/** The event as the API returns it and as webhooks carry it (API.md, Webhooks: Payload). */
export interface EmittedEvent {
  id: string;
  type: EventType;
  created_at: string;
  environment: Environment;
  workspace_id: string;
  data: { object: unknown };
}

/**
 * The event in the payload's documented key order (the outbox keeps it as jsonb, which reorders keys),
 * as the events API answers it and webhooks carry it: a payment's payer document masked even in an
 * event written before payments were stored masked.
 */
export const eventView = (event: EmittedEvent): EmittedEvent => ({
  id: event.id,
  type: event.type,
  created_at: event.created_at,
  environment: event.environment,
  workspace_id: event.workspace_id,
  data: { ...event.data, object: withCounterpartyMasked(event.data.object) },
});

/** Money travels as strings of minor units; a bigint left in an object is written the same way. */
export const jsonSafe = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;

/**
 * Writes an event into the outbox and, in the same statement, one pending webhook delivery for
 * every enabled endpoint of the workspace and environment that subscribes to its type. It takes a
 * Tx so that no change can be committed without its event and deliveries, nor they without it.
 * This is the only writer of the events table.
 */
export async function emitEvent(
  tx: Tx,
  input: {
    workspaceId: string;
    environment: Environment;
    type: EventType;
    object: unknown;
    at?: Date;
    /** The write that made the event (a payment's row), sent in the same statement: one round trip. */
    carrying?: CarriedWrite;
  },
): Promise<EmittedEvent> {
  const event: EmittedEvent = {
    id: newId(),
    type: input.type,
    created_at: (input.at ?? new Date()).toISOString(),
    environment: input.environment,
    workspace_id: input.workspaceId,
    data: { object: input.object },
  };
  const carried = input.carrying;
  // The event's parameters come after the carried write's, which keeps its own $1… numbering.
  const shift = carried?.params.length ?? 0;
  const p = (n: number) => `$${n + shift}`;
  tx.later(
    // One statement, both rows: the deliveries take the event's values from the parameters rather
    // than from the CTE, so every table is named by the one workspace and a distributed database
    // (Citus) runs the whole statement on that workspace's shard.
    `WITH ${carried ? `carried AS (${carried.text}), ` : ''}event AS (
       INSERT INTO events (id, workspace_id, environment, type, payload, created_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})
     )
     INSERT INTO webhook_deliveries
       (workspace_id, id, environment, endpoint_id, event_id, event_type, url, created_at, next_attempt_at)
     SELECT e.workspace_id, lastro_uuidv7(), e.environment, e.id, ${p(1)}, ${p(4)}, e.url, ${p(6)}, LEAST(${p(6)}::timestamptz, ${p(7)})
       FROM webhook_endpoints e
      WHERE e.workspace_id = ${p(2)} AND e.environment = ${p(3)} AND e.status = 'enabled' AND e.deleted_at IS NULL
        AND (e.event_types @> '{*}' OR ${p(4)} = ANY (e.event_types))`,
    [
      ...(carried?.params ?? []),
      event.id,
      input.workspaceId,
      event.environment,
      event.type,
      JSON.stringify(event, jsonSafe),
      event.created_at,
      // An event dated ahead of real time (a workspace's sandbox test clock moved forward) is
      // delivered now, not once real time reaches its date.
      new Date().toISOString(),
    ],
  );
  return event;
}
