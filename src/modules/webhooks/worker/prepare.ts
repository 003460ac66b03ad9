import { Webhook } from 'standardwebhooks';
import type { Deps } from '../../../platform/context.ts';
import { type EmittedEvent, eventView } from '../../../platform/outbox.ts';
import type { SendOutcome } from '../send.ts';
import { privateAllowed, urlProblem } from '../url-policy.ts';
import type { LeasedDelivery } from './claim.ts';

/** The body of every attempt of an event's deliveries, the bytes its signatures cover. */
export const deliveryBody = (payload: EmittedEvent): string => JSON.stringify(eventView(payload));

/** The headers every attempt of an event's deliveries sends alike (the signature ones change per attempt). */
export const constantHeaders = (eventId: string): Record<string, string> => ({
  'content-type': 'application/json',
  'user-agent': 'Lastro-Webhooks/1.0',
  'webhook-id': eventId,
});

/** A delivery ready to POST: its signed Standard Webhooks request and the destination policy it goes under. */
export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
}

/**
 * Signs one delivery with its endpoint's secret (and, during a rotation, the previous one too), or
 * answers the outcome of a destination the URL policy refuses, which is recorded without sending.
 * Throws when a secret cannot be opened: the attempt then fails before anything is sent.
 */
export function prepare(
  deps: Deps,
  delivery: LeasedDelivery,
  startedAt: Date,
): { request: SignedRequest } | { refused: SendOutcome } {
  const allowPrivate = privateAllowed(delivery.environment, deps.config.webhookAllowPrivate);
  const problem = urlProblem(delivery.url, delivery.environment, allowPrivate);
  if (problem)
    return { refused: { statusCode: null, error: `destination refused: url ${problem}`, durationMs: 0 } };
  const secrets = openSecrets(deps, delivery, startedAt);
  const body = deliveryBody(delivery.payload);
  // The signed timestamp is the wall clock: receivers compare it with theirs (5 min tolerance).
  const timestamp = new Date();
  const signature = secrets
    .map((secret) => new Webhook(secret).sign(delivery.event_id, timestamp, body))
    .join(' ');
  const headers = {
    ...constantHeaders(delivery.event_id),
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  return { request: { url: delivery.url, headers, body, allowPrivate } };
}

/** The endpoint's signing secrets: its own, and the previous one until that expires. */
function openSecrets(deps: Deps, delivery: LeasedDelivery, startedAt: Date): string[] {
  try {
    const secrets = [deps.sealer.open(delivery.secret_enc)];
    if (
      delivery.previous_secret_enc &&
      delivery.previous_secret_expires_at &&
      delivery.previous_secret_expires_at > startedAt
    )
      secrets.push(deps.sealer.open(delivery.previous_secret_enc));
    return secrets;
  } catch {
    throw new Error("the endpoint's signing secret could not be opened");
  }
}
