import { Type } from 'typebox';
import { EVENT_TYPES } from '../../platform/outbox.ts';
import { PageQuery } from '../../platform/pagination.ts';
import { doc, EnvironmentName, Nullable, Timestamp, Uuid } from '../../platform/schema.ts';
import { EventTypeName } from '../events/schemas.ts';

const Subscription = Type.Enum([...EVENT_TYPES, '*']);
const EventTypes = Type.Array(Subscription, {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: 'Event types sent to the endpoint; ["*"] (the default) is every type, present and future.',
});
const EndpointUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Absolute http(s) URL; https only in live; never a loopback, private or link-local address in live.',
  examples: ['https://example.com/webhooks/lastro'],
});
export const EndpointStatus = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);

export const Endpoint = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  environment: EnvironmentName,
  url: Type.String(),
  description: Nullable(Type.String()),
  event_types: Type.Array(Type.String()),
  status: EndpointStatus,
  disabled_reason: Nullable(
    Type.String({
      description: 'gone (the receiver answered 410), failing (5 days of failures) or disabled_by_user',
    }),
  ),
  previous_secret_expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({ description: 'whsec_ + base64 of 32 random bytes. Shown once: store it now.' }),
});

export const CreateEndpointBody = Type.Object({
  url: EndpointUrl,
  event_types: Type.Optional(EventTypes),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

export const UpdateEndpointBody = Type.Object({
  url: Type.Optional(EndpointUrl),
  event_types: Type.Optional(EventTypes),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  status: Type.Optional(EndpointStatus),
});

export const DeliveryStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
]);

export const Delivery = Type.Object({
  id: Uuid,
  endpoint_id: Uuid,
  workspace_id: Uuid,
  environment: EnvironmentName,
  event_id: Uuid,
  event_type: Type.String(),
  url: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Timestamp,
  delivered_at: Nullable(Timestamp),
  next_attempt_at: Nullable(Timestamp),
});

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer(),
  url: Type.String(),
  started_at: Timestamp,
  duration_ms: Type.Integer(),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
});

/** A request body shown in the log is cut past this many characters (a payment's event is far smaller). */
export const LOGGED_BODY_CHARS = 16_384;

export const DeliveryRequest = Type.Object(
  {
    headers: Type.Record(Type.String(), Type.String(), {
      description:
        'The headers every attempt sends alike (content-type, user-agent, webhook-id). webhook-timestamp and webhook-signature are made at each attempt, from its own clock, and not kept.',
    }),
    body: Type.String({
      description: `The raw body every attempt sends, byte for byte (what a signature covers); cut past ${LOGGED_BODY_CHARS} characters.`,
    }),
    body_truncated: Type.Boolean({ description: 'Whether body is cut short' }),
  },
  { description: 'The request as it is POSTed to the endpoint' },
);

export const DeliveryWithAttempts = Type.Object({
  ...Delivery.properties,
  request: DeliveryRequest,
  attempt_history: Type.Array(DeliveryAttempt),
});

export const DeliveryQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(DeliveryStatus),
  event_type: Type.Optional(EventTypeName),
  endpoint_id: Type.Optional(Uuid),
});

export const ListenSession = Type.Object({
  secret: Type.String({
    description:
      'whsec_… secret that `lastro listen` signs forwarded events with: the same for every listener of this workspace and environment, so a local receiver configured once keeps verifying across restarts.',
  }),
  workspace_id: doc(Uuid, 'The workspace whose events are forwarded.'),
  environment: doc(EnvironmentName, "The environment whose events are forwarded: the key's."),
  start_after: doc(
    Uuid,
    'An event id to pass as `after` to GET /v1/{env}/events for the events from now on (taken from the server clock, not the listener one).',
  ),
});

export const LISTEN_SESSION_EXAMPLE = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=',
  workspace_id: '0193b3a0-8c7e-7d2a-9f10-3c4d5e6f7a8b',
  environment: 'sandbox',
  start_after: '019ac1f2-3e00-7000-8000-000000000000',
};
