import { Type } from 'typebox';
import { EVENT_TYPES } from '../../platform/outbox.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { doc, EnvironmentName, Timestamp, Uuid } from '../../platform/schema.ts';

export const EventTypeName = Type.Enum(EVENT_TYPES, { description: 'An event type' });

/** The event as written to the outbox and as webhooks carry it (API.md, Webhooks: Payload). */
export const Event = Type.Object({
  id: doc(
    Uuid,
    "The event's id (UUIDv7, time-ordered); a webhook's `webhook-id`, the same on every attempt.",
  ),
  type: EventTypeName,
  created_at: doc(Timestamp, 'When the change it announces was committed, ISO 8601 UTC.'),
  environment: doc(EnvironmentName, 'The environment of the change.'),
  workspace_id: doc(Uuid, 'The workspace of the change.'),
  data: Type.Object(
    { object: Type.Unknown({ description: 'The resource as the API returns it' }) },
    { description: 'What changed: `object`, the resource after the change.' },
  ),
});

export const EVENT_EXAMPLE = {
  id: '019ac1f2-3e41-7c3a-9b2d-5e6f7a8b9c0d',
  type: 'payment.completed',
  created_at: '2026-11-26T10:00:00.000Z',
  environment: 'sandbox',
  workspace_id: '0193b3a0-8c7e-7d2a-9f10-3c4d5e6f7a8b',
  data: {
    object: {
      id: '019ac1f2-3d10-7b2e-8c4f-1a2b3c4d5e6f',
      kind: 'pix_cash_in',
      status: 'completed',
      amount_minor: '4200',
      currency: 'BRL',
    },
  },
};

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
