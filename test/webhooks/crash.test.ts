import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import type { Deps } from '../../src/platform/context.ts';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { deliveries, emit, receiverEndpoint, startWebhookWorld, type WebhookWorld } from './helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

/** A second process on the same database: its own app, clock-sharing deps and dispatcher. */
async function restart(world: WebhookWorld) {
  const deps: Deps = { ...world.ctx.deps };
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  const dispatcher = new WebhookDispatcher({ random: () => 0.5 });
  return { deps, app, dispatcher };
}

describe('crash safety', () => {
  it('an event committed by a process that died before dispatching is delivered by a fresh worker', async () => {
    const endpoint = await receiverEndpoint(world, '/after-crash', ['payment.completed']);
    // "Process 1" commits the change with its event and is gone: no dispatcher ever ran there.
    const event = await emit(world.ctx, world.owner.workspaceId, 'payment.completed');
    expect((await deliveries(world.api, `?endpoint_id=${endpoint.id}`))[0]).toMatchObject({
      status: 'pending',
      attempts: 0,
    });

    // "Process 2" on the same database runs the real background task runner.
    const next = await restart(world);
    const log = { error: () => {}, info: () => {}, warn: () => {} } as never;
    const runner = new TaskRunner(
      next.deps,
      [{ name: 'webhook-dispatch', intervalMs: 20, run: (d) => next.dispatcher.run(d) }],
      log,
    );
    runner.start();
    try {
      const [got] = await world.receiver.waitFor(1, '/after-crash');
      expect(got!.id).toBe(event.id);
      expect(got!.verifiedWith).toHaveLength(1);
    } finally {
      await runner.stop();
      await next.dispatcher.close();
      await next.app.close();
    }
    expect((await deliveries(world.api, `?endpoint_id=${endpoint.id}`))[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
    });
  });

  it('a worker that dies mid-attempt only delays the delivery: after its lease another sends it, same webhook-id, counted once', async () => {
    const endpoint = await receiverEndpoint(world, '/mid-flight', ['payment.failed']);
    world.receiver.reply('/mid-flight', 'hang', 200);
    const event = await emit(world.ctx, world.owner.workspaceId, 'payment.failed');

    // Worker 1 claims and sends, then "dies": its attempt never completes within the lease.
    const dying = new WebhookDispatcher({ timeoutMs: 3000, leaseMs: 60_000, roundWaitMs: 10 });
    await dying.run(world.ctx.deps);
    await world.receiver.waitFor(1, '/mid-flight');

    const next = await restart(world);
    try {
      // Within the lease nobody else touches it.
      expect(await next.dispatcher.run(next.deps)).toBe(0);
      world.ctx.clock.advance(61_000);
      expect(await next.dispatcher.run(next.deps)).toBe(1);
      await next.dispatcher.idle();
      const got = world.receiver.received('/mid-flight');
      expect(got.map((r) => r.id)).toEqual([event.id, event.id]);
      expect((await deliveries(world.api, `?endpoint_id=${endpoint.id}`))[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
      });
      // The dead worker's late outcome is fenced off by the lease token: it changes nothing.
      await dying.close();
      expect((await deliveries(world.api, `?endpoint_id=${endpoint.id}`))[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
      });
    } finally {
      await next.dispatcher.close();
      await next.app.close();
    }
  });

  it('no event without its change: a rolled-back transaction leaves neither event nor delivery', async () => {
    const endpoint = await receiverEndpoint(world, '/rollback', ['kyc.updated']);
    const { emitEvent } = await import('../../src/platform/outbox.ts');
    await expect(
      world.ctx.db.transaction(async (tx) => {
        await emitEvent(tx, {
          workspaceId: world.owner.workspaceId,
          environment: 'sandbox',
          type: 'kyc.updated',
          object: {},
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await deliveries(world.api, `?endpoint_id=${endpoint.id}`)).toHaveLength(0);
    expect((await world.api.get('/v1/sandbox/events?type=kyc.updated')).json().data).toHaveLength(0);
  });
});
