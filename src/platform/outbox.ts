import type { Tx } from '../db/types.ts';
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
const jsonSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * JSON text of a value whose money may still be bigint, written as strings of minor units. Views carry
 * money as strings already, so the plain JSON.stringify (about half the cost: a replacer is a call per
 * key) is tried first; only a bigint, which it refuses with a TypeError, sends it through the replacer.
 */
export function moneyJson(value: unknown): string {
  try {
    return JSON.stringify(value ?? null);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, jsonSafe);
  }
}

/**
 * Writes an event into the outbox and, with it, one pending webhook delivery for every enabled
 * endpoint of the workspace and environment that subscribes to its type. It takes a Tx so that no
 * change can be committed without its event and deliveries, nor they without it. Both writes are
 * held (Tx.hold): they go in one statement with the writes the request held before and after them.
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
  tx.hold(
    {
      text: 'INSERT INTO events (id, workspace_id, environment, type, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      params: [
        event.id,
        input.workspaceId,
        event.environment,
        event.type,
        moneyJson(event),
        event.created_at,
      ],
    },
    {
      // The deliveries take the event's values from their parameters rather than from the event's
      // row, so every table of the statement is named by the one workspace and a distributed
      // database (Citus) runs it on that workspace's shard.
      text: `INSERT INTO webhook_deliveries
               (workspace_id, id, environment, endpoint_id, event_id, event_type, url, created_at, next_attempt_at)
             SELECT e.workspace_id, lastro_uuidv7(), e.environment, e.id, $1, $4, e.url, $5, LEAST($5::timestamptz, $6)
               FROM webhook_endpoints e
              WHERE e.workspace_id = $2 AND e.environment = $3 AND e.status = 'enabled' AND e.deleted_at IS NULL
                AND (e.event_types @> '{*}' OR $4 = ANY (e.event_types))`,
      params: [
        event.id,
        input.workspaceId,
        event.environment,
        event.type,
        event.created_at,
        // An event dated ahead of real time (a workspace's sandbox test clock moved forward) is
        // delivered now, not once real time reaches its date.
        new Date().toISOString(),
      ],
    },
  );
  return event;
}
