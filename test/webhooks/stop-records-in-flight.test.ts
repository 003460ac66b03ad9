/**
 * A worker stopped (SIGTERM) while attempts are in flight records them before it exits: an answer
 * that comes within the stop's wait is recorded as it is, one that does not is cut and recorded as
 * an interrupted attempt on the retry schedule. Nothing is left leased for another worker to find
 * only after the lease runs out.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { createWebhookDispatchTask } from '../../src/modules/webhooks/worker/task.ts';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { createEndpoint, deliveries, emit, receiverEndpoint, startWebhookWorld } from './helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

/** A receiver on 127.0.0.1 that answers 200 only `delayMs` after each request arrived. */
async function slowReceiver(delayMs: number) {
  const arrived: string[] = [];
  const server = http.createServer((req, res) => {
    arrived.push(String(req.headers['webhook-id']));
    req.resume();
    setTimeout(() => res.writeHead(200).end('ok'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slow`,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The worker's own task under the real runner, as `lastro worker` runs it. */
function startRunner(stopWaitMs: number) {
  const task = createWebhookDispatchTask({ random: () => 0.5, stopWaitMs, roundWaitMs: 10 });
  const runner = new TaskRunner(world.ctx.deps, [task], pino({ level: 'silent' }));
  runner.start();
  return runner;
}

async function waitUntil(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 5000) throw new Error('nothing arrived within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function lease(deliveryId: string) {
  const { rows } = await world.ctx.db.query<{ locked_until: Date | null; lease_token: string | null }>(
    'SELECT locked_until, lease_token FROM webhook_deliveries WHERE id = $1',
    [deliveryId],
  );
  return rows[0];
}

it('an answer that arrives while the worker stops is recorded delivered, the lease released', async () => {
  const receiver = await slowReceiver(400);
  try {
    const endpoint = await createEndpoint(world.api, {
      url: receiver.url,
      event_types: ['payment.completed'],
    });
    const event = await emit(world.ctx, world.owner.workspaceId, 'payment.completed');
    const runner = startRunner(5000);
    await waitUntil(() => receiver.arrived.length > 0);
    await runner.stop();

    expect(receiver.arrived).toEqual([event.id]);
    const [delivery] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 });
    expect(await lease(delivery!.id)).toEqual({ locked_until: null, lease_token: null });
  } finally {
    await receiver.close();
  }
});

it('an attempt still unanswered when the stop stops waiting is recorded interrupted and retried later', async () => {
  const endpoint = await receiverEndpoint(world, '/hangs', ['payment.failed']);
  world.receiver.reply('/hangs', 'hang');
  await emit(world.ctx, world.owner.workspaceId, 'payment.failed');
  const runner = startRunner(200);
  await world.receiver.waitFor(1, '/hangs');
  await runner.stop();

  const [delivery] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
  expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
  expect(delivery!.last_error).toMatch(/^interrupted: /);
  // Due again at the schedule's first step (5 s, no jitter with random 0.5), not after the lease's 60 s.
  const dueInMs = Date.parse(delivery!.next_attempt_at!) - world.ctx.clock.now().getTime();
  expect(dueInMs).toBeGreaterThan(3000);
  expect(dueInMs).toBeLessThanOrEqual(5000);
  expect(await lease(delivery!.id)).toEqual({ locked_until: null, lease_token: null });
  const detail = await world.api.get(`/v1/sandbox/webhooks/deliveries/${delivery!.id}`);
  expect(detail.json().data.attempt_history).toMatchObject([
    { status_code: null, error: delivery!.last_error },
  ]);
});
