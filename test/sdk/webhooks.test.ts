import { afterAll, beforeAll, expect, it } from 'vitest';
import { Lastro, verifyWebhook, WebhookVerificationError } from '../../packages/sdk/src/index.ts';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

let server: ListeningWorld;
let receiver: WebhookReceiver;

beforeAll(async () => {
  server = await startListeningWorld();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

it('verifies a real delivery of the server, and refuses it altered, re-signed with another secret or stale', async () => {
  const ws = await server.workspace('Webhook SDK');
  const lastro = new Lastro({
    apiKey: ws.apiKey,
    workspaceId: ws.owner.workspaceId,
    baseUrl: server.baseUrl,
  });
  const endpoint = await lastro.post('/v1/{env}/webhooks/endpoints', {
    body: { url: receiver.url('/hooks'), event_types: ['payment.completed'] },
  });
  const payment = await lastro.post('/v1/{env}/simulate/pix/cash-in', { body: { amount_minor: '4200' } });
  const [delivery] = await receiver.waitFor(1, '/hooks', 15_000);
  const headers = {
    'webhook-id': delivery!.id,
    'webhook-timestamp': delivery!.timestamp,
    'webhook-signature': delivery!.signature,
  };

  const event = lastro.webhooks.verify(endpoint.secret!, delivery!.body, headers);
  expect(event).toMatchObject({
    id: delivery!.id,
    type: 'payment.completed',
    environment: 'sandbox',
    workspace_id: ws.owner.workspaceId,
    data: { object: { id: payment.id, amount_minor: '4200' } },
  });
  // Headers as a fetch Headers object (what a Request of a web framework carries) work the same.
  expect(verifyWebhook(endpoint.secret!, delivery!.body, new Headers(headers)).id).toBe(delivery!.id);

  const altered = delivery!.body.replace('4200', '9200');
  expect(() => verifyWebhook(endpoint.secret!, altered, headers)).toThrow(WebhookVerificationError);
  const other = await lastro.post('/v1/{env}/webhooks/endpoints/{id}/rotate-secret', {
    params: { path: { id: endpoint.id } },
  });
  const otherSecret = (other as { secret?: string }).secret!;
  expect(otherSecret).not.toBe(endpoint.secret);
  expect(() => verifyWebhook(otherSecret, delivery!.body, headers)).toThrow(WebhookVerificationError);
  const stale = { ...headers, 'webhook-timestamp': String(Number(delivery!.timestamp) - 3600) };
  expect(() => verifyWebhook(endpoint.secret!, delivery!.body, stale)).toThrow(WebhookVerificationError);
});
