import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from './types.js';

export { WebhookVerificationError };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const header = (headers: HeaderSource, name: string): string => {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/**
 * Checks a delivery the way Standard Webhooks defines it (HMAC-SHA256 of `id.timestamp.body` with the
 * endpoint's `whsec_…` secret, timestamp within 5 minutes) and returns the event. `body` must be the
 * raw request body, byte for byte; throws WebhookVerificationError otherwise.
 */
export function verifyWebhook(secret: string, body: string | Buffer, headers: HeaderSource): WebhookEvent {
  return new Webhook(secret).verify(body, {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  }) as WebhookEvent;
}
