import { afterAll, describe, expect, it } from 'vitest';
import { WebhookHttp } from '../../src/modules/webhooks/send.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startWorld } from '../support/world.ts';
import { deliveries, dispatch, emit, receiverEndpoint, startWebhookWorld } from './helpers.ts';

const PRIVATE_URLS = [
  'https://127.0.0.1/hook',
  'https://[::1]/hook',
  'https://10.0.0.7/hook',
  'https://172.16.5.4/hook',
  'https://192.168.0.10/hook',
  'https://100.64.0.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://[fd00::1]/hook',
  'https://[fe80::1]/hook',
  'https://0.0.0.0/hook',
  'https://localhost/hook',
  'https://[::ffff:169.254.169.254]/hook',
];

const world = await startWebhookWorld({ timeoutMs: 1000 });
const strict = await startWorld({ webhookAllowPrivate: false });
const receiver = await WebhookReceiver.start();
afterAll(async () => {
  await receiver.close();
  await strict.close();
  await world.close();
});

describe('SSRF: endpoint URLs', () => {
  it('live takes https only, and never a private, loopback, link-local or metadata address, even with WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const live = await world.ws.liveApi();
    for (const url of ['http://example.com/hook', ...PRIVATE_URLS]) {
      const res = await live.post('/v1/live/webhooks/endpoints', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', details: [{ field: 'body.url' }] });
    }
    expect(
      (await live.post('/v1/live/webhooks/endpoints', { url: 'https://example.com/hook' })).statusCode,
    ).toBe(200);
    const created = (await live.post('/v1/live/webhooks/endpoints', { url: 'https://example.com/2' })).json()
      .data;
    const patched = await live.patch(`/v1/live/webhooks/endpoints/${created.id}`, {
      url: 'https://10.0.0.1/x',
    });
    expect(patched.statusCode).toBe(400);
  });

  it('sandbox takes http, but private addresses only with WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const { api } = await strict.workspace('Strict');
    expect(
      (await api.post('/v1/sandbox/webhooks/endpoints', { url: 'http://example.com/hook' })).statusCode,
    ).toBe(200);
    for (const url of [...PRIVATE_URLS, receiver.url('/strict')]) {
      const res = await api.post('/v1/sandbox/webhooks/endpoints', { url });
      expect(res.statusCode, url).toBe(400);
    }
    // With the flag (the test world), the local receiver is accepted.
    expect(
      (await world.api.post('/v1/sandbox/webhooks/endpoints', { url: receiver.url('/ok') })).statusCode,
    ).toBe(200);
  });
});

describe('SSRF: at delivery time', () => {
  it('checks the destination again when sending: an endpoint that became private is refused, nothing is sent', async () => {
    const endpoint = await receiverEndpoint(world, '/was-allowed', ['wallet.created']);
    // The setting is turned off after the endpoint was created.
    world.ctx.deps.config.webhookAllowPrivate = false;
    try {
      await emit(world.ctx, world.owner.workspaceId, 'wallet.created');
      await dispatch(world);
    } finally {
      world.ctx.deps.config.webhookAllowPrivate = true;
    }
    expect(world.receiver.received('/was-allowed')).toHaveLength(0);
    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    expect(logged!.last_error).toMatch(/^destination refused/);
  });

  it('resolves names itself and connects only to a checked address (localhost → 127.0.0.1 is refused)', async () => {
    const http = new WebhookHttp();
    try {
      const url = receiver.url('/dns').replace('127.0.0.1', 'localhost');
      const refused = await http.post(url, {}, '{}', { timeoutMs: 1000, allowPrivate: false });
      expect(refused.statusCode).toBeNull();
      expect(refused.error).toMatch(/destination refused: localhost resolves to a private address/);
      const literal = await http.post(receiver.url('/dns'), {}, '{}', {
        timeoutMs: 1000,
        allowPrivate: false,
      });
      expect(literal.error).toMatch(/destination refused: 127\.0\.0\.1 is a private address/);
      expect(receiver.received('/dns')).toHaveLength(0);
      const allowed = await http.post(url, {}, '{}', { timeoutMs: 1000, allowPrivate: true });
      expect(allowed).toMatchObject({ statusCode: 200, error: null });
      expect(receiver.received('/dns')).toHaveLength(1);
    } finally {
      http.close();
    }
  });

  it('does not follow redirects', async () => {
    const endpoint = await receiverEndpoint(world, '/redirect', ['customer.updated']);
    world.receiver.reply('/redirect', 302);
    await emit(world.ctx, world.owner.workspaceId, 'customer.updated');
    await dispatch(world);
    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({ status: 'pending', last_status_code: 302, last_error: 'HTTP 302' });
  });
});
