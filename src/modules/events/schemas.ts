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

export const EventQuery = Type.Object({
  ...PageQuery(),
  type: Type.Optional(EventTypeName),
});
