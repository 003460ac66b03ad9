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
export const EndpointStatus = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
  description: 'enabled: events are delivered; disabled: none are sent.',
});

export const Endpoint = Type.Object({
  id: doc(Uuid, 'The endpoint id.'),
  workspace_id: doc(Uuid, 'The workspace whose events it receives.'),
  environment: EnvironmentName,
  url: Type.String({ description: 'Where events are POSTed.' }),
  description: Nullable(Type.String(), { description: 'Your note about the endpoint.' }),
  event_types: Type.Array(Type.String(), { description: 'The event types sent to it; ["*"] is every type.' }),
  status: EndpointStatus,
  disabled_reason: Nullable(
    Type.String({
      description: 'gone (the receiver answered 410), failing (5 days of failures) or disabled_by_user',
    }),
  ),
  previous_secret_expires_at: Nullable(Timestamp, {
    description: 'Until when the secret before the last rotation still signs beside the new one.',
  }),
  created_at: doc(Timestamp, 'When the endpoint was created.'),
  updated_at: doc(Timestamp, 'When the endpoint last changed.'),
});

export const ENDPOINT_EXAMPLE = {
  id: '0194f430-af1b-7c2d-9e3f-4a5b6c7d8e9f',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  url: 'https://example.com/webhooks/lastro',
  description: 'Order service',
  event_types: ['payment.completed', 'payment.failed'],
  status: 'enabled',
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-20T12:00:00.000Z',
  updated_at: '2026-11-20T12:00:00.000Z',
};

export const ENDPOINT_WITH_SECRET_EXAMPLE = {
  ...ENDPOINT_EXAMPLE,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=',
};

export const EndpointWithSecret = Type.Object({
  ...Endpoint.properties,
  secret: Type.String({ description: 'whsec_ + base64 of 32 random bytes. Shown once: store it now.' }),
});

export const CreateEndpointBody = Type.Object(
  {
    url: EndpointUrl,
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(Type.String({ maxLength: 500, description: 'Your note about the endpoint.' })),
  },
  {
    examples: [
      {
        url: 'https://example.com/webhooks/lastro',
        event_types: ['payment.completed', 'payment.failed'],
        description: 'Order service',
      },
    ],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(EndpointUrl),
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(
      Nullable(Type.String({ maxLength: 500 }), {
        description: 'Your note about the endpoint; null clears it.',
      }),
    ),
    status: Type.Optional(EndpointStatus),
  },
  { examples: [{ status: 'disabled' }] },
);

export const DeliveryStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')],
  { description: 'pending (trying, with retries), delivered (a 2xx answer) or failed (retries exhausted).' },
);

export const Delivery = Type.Object({
  id: doc(Uuid, 'The delivery id.'),
  endpoint_id: doc(Uuid, 'The endpoint it goes to.'),
  workspace_id: doc(Uuid, 'The workspace of the event.'),
  environment: EnvironmentName,
  event_id: doc(Uuid, 'The event delivered (webhook-id carries it too).'),
  event_type: Type.String({ description: 'The type of the event, e.g. payment.completed.' }),
  url: Type.String({ description: 'The URL it is POSTed to.' }),
  status: DeliveryStatus,
  attempts: Type.Integer({ description: 'How many attempts were made so far.' }),
  last_status_code: Nullable(Type.Integer(), {
    description: 'The HTTP status of the last answer; null when none came.',
  }),
  last_error: Nullable(Type.String(), { description: 'What went wrong on the last attempt.' }),
  created_at: doc(Timestamp, 'When the delivery was queued.'),
  delivered_at: Nullable(Timestamp, { description: 'When a 2xx answer came.' }),
  next_attempt_at: Nullable(Timestamp, { description: 'When the next retry is due; null when none is.' }),
});

export const DELIVERY_EXAMPLE = {
  id: '0194f440-b02c-7d3e-8f4a-5b6c7d8e9f0a',
  endpoint_id: '0194f430-af1b-7c2d-9e3f-4a5b6c7d8e9f',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  event_id: '0194f3a2-7c1f-7b3a-9d2f-4e5a6b7c8d91',
  event_type: 'payment.completed',
  url: 'https://example.com/webhooks/lastro',
  status: 'delivered',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  created_at: '2026-11-26T03:05:12.000Z',
  delivered_at: '2026-11-26T03:05:12.300Z',
  next_attempt_at: null,
};

export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer({ description: 'The attempt number, from 1.' }),
  url: Type.String({ description: 'The URL it was POSTed to.' }),
  started_at: doc(Timestamp, 'When the attempt began.'),
  duration_ms: Type.Integer({ description: 'How long the attempt took, in milliseconds.' }),
  status_code: Nullable(Type.Integer(), { description: 'The HTTP status answered; null when none came.' }),
  error: Nullable(Type.String(), {
    description: 'What went wrong: a timeout, a refused connection, a non-2xx.',
  }),
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
  attempt_history: Type.Array(DeliveryAttempt, { description: 'Every attempt, first to last.' }),
});

export const DeliveryQuery = Type.Object({
  ...PageQuery(),
  status: Type.Optional(doc(DeliveryStatus, 'Only deliveries in this status.')),
  event_type: Type.Optional(doc(EventTypeName, 'Only deliveries of this event type.')),
  endpoint_id: Type.Optional(doc(Uuid, 'Only deliveries to this endpoint.')),
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
