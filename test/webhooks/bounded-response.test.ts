/**
 * A receiver's answer is decided by its status as soon as the headers arrive; its body is read only
 * up to a short prefix. A receiver that answers 200 and then streams for ever is delivered to, once,
 * and costs the dispatcher a few kilobytes, not gigabytes and a retry.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { createEndpoint, deliveries, emit, startWebhookWorld } from './helpers.ts';

// An attempt timeout far longer than any prompt answer: an attempt that reads the endless body
// ends only with it, recorded as a timeout.
const world = await startWebhookWorld({ timeoutMs: 20_000 });
const streamed = { bytes: 0, cut: 0 };
let endless: http.Server;
let base: string;

beforeAll(async () => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  endless = http.createServer((req, res) => {
    req.resume();
    res.writeHead(req.url === '/broken' ? 500 : 200, { 'content-type': 'text/plain' });
    let open = true;
    res.on('close', () => {
      open = false;
      streamed.cut += 1;
    });
    const pump = () => {
      while (open) {
        streamed.bytes += chunk.length;
        if (!res.write(chunk)) return;
      }
    };
    res.on('drain', pump);
    pump();
  });
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
});
afterAll(async () => {
  endless.closeAllConnections();
  await new Promise((resolve) => endless.close(resolve));
  await world.close();
});

it('a 200 with an endless body is recorded delivered at once, never retried, the stream cut short', async () => {
  const ok = await createEndpoint(world.api, { url: `${base}/endless`, event_types: ['wallet.created'] });
  const broken = await createEndpoint(world.api, { url: `${base}/broken`, event_types: ['wallet.created'] });
  await emit(world.ctx, world.owner.workspaceId, 'wallet.created');
  const dispatcher = new WebhookDispatcher({ random: () => 0.5, timeoutMs: 20_000 });
  try {
    await dispatcher.run(world.ctx.deps);
    await dispatcher.idle();
  } finally {
    await dispatcher.close();
  }

  const [delivered] = await deliveries(world.api, `?endpoint_id=${ok.id}`);
  expect(delivered).toMatchObject({
    status: 'delivered',
    attempts: 1,
    last_status_code: 200,
    last_error: null,
  });
  expect(delivered!.next_attempt_at).toBeNull();
  // The status decides for a failure too: a 500 is retried as a 500, not as a timeout.
  const [failed] = await deliveries(world.api, `?endpoint_id=${broken.id}`);
  expect(failed).toMatchObject({
    status: 'pending',
    attempts: 1,
    last_status_code: 500,
    last_error: 'HTTP 500',
  });
  const attempts = (await world.api.get(`/v1/sandbox/webhooks/deliveries/${delivered!.id}`)).json().data;
  expect(JSON.stringify(attempts)).not.toMatch(/timeout/);
  // Both streams were cut by the dispatcher; what the receiver managed to write is bounded by socket
  // buffers, not by the body (reading it to the timeout took gigabytes).
  for (let i = 0; i < 50 && streamed.cut < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(streamed.cut).toBe(2);
  expect(streamed.bytes).toBeLessThan(64 * 1024 * 1024);
});
