import { Type } from 'typebox';
import { EVENT_TYPES } from '../../platform/outbox.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { EnvironmentName, Timestamp, Uuid } from '../../platform/schema.ts';

export const EventTypeName = Type.Enum(EVENT_TYPES, { description: 'An event type' });

/** The event as written to the outbox and as webhooks carry it (API.md, Webhooks: Payload). */
export const Event = Type.Object({
  id: Uuid,
  type: EventTypeName,
  created_at: Timestamp,
  environment: EnvironmentName,
  workspace_id: Uuid,
  data: Type.Object({ object: Type.Unknown({ description: 'The resource as the API returns it' }) }),
});

/** The longest a list of events waits for a new one: under the 30 s most HTTP clients and proxies allow. */
export const MAX_EVENT_WAIT_MS = 25_000;

export const EventQuery = Type.Object({
  ...PageQuery(),
  type: Type.Optional(EventTypeName),
  after: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'Events after this event id, oldest first, instead of newest first (the feed `lastro listen` reads). Only events at least a second old are answered, so one whose transaction commits late is never skipped. Takes no cursor.',
    }),
  ),
  wait_ms: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_EVENT_WAIT_MS,
      default: 0,
      description: `With \`after\`: when no event is there yet, wait up to this long (at most ${MAX_EVENT_WAIT_MS} ms) for one before answering an empty list (long polling).`,
    }),
  ),
});
