/**
 * An endpoint disabled by the dispatcher (410 Gone, or 5 days failing) could strand a delivery
 * in `pending` for ever. disableEndpoint() (repo.ts) takes only a FOR NO KEY UPDATE lock on the endpoint
 * row (plain UPDATE), which does not conflict with the FOR KEY SHARE lock that emitEvent's delivery
 * INSERT takes through the foreign key; so a delivery inserted by a transaction still open while the
 * dispatcher disables the endpoint is invisible to failPendingDeliveries(), commits afterwards as
 * `pending`, and is never claimed (the claim only walks enabled endpoints) nor failed.
 * The owner's PATCH/DELETE are safe: they SELECT … FOR UPDATE first, which waits for the emitter.
 * Needs two connections: runs on PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, expect, it } from 'vitest';
import { emitEvent } from '../../src/platform/outbox.ts';
import { onRealPostgres } from '../support/database.ts';
import { deliveries, dispatch, emit, receiverEndpoint, startWebhookWorld } from '../webhooks/helpers.ts';

const world = await startWebhookWorld({ timeoutMs: 2000 });
afterAll(() => world.close());

it.skipIf(!onRealPostgres())(
  'a delivery committed while a 410 disables its endpoint is failed with the others, not left pending',
  async () => {
    const endpoint = await receiverEndpoint(world, '/gone');
    world.receiver.reply('/gone', 410);
    await emit(world.ctx, world.owner.workspaceId, 'payment.completed'); // e1, committed

    // A module's transaction emits e2 and is still open (e.g. a payout transaction finishing).
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let emitted!: () => void;
    const inserted = new Promise<void>((resolve) => {
      emitted = resolve;
    });
    const open = world.ctx.db.transaction(async (tx) => {
      await emitEvent(tx, {
        workspaceId: world.owner.workspaceId,
        environment: 'sandbox',
        type: 'payment.failed',
        object: { id: 'p2' },
      });
      await tx.settle(); // the held rows are inserted now; the transaction stays open
      emitted();
      await gate;
    });
    await inserted;

    // Meanwhile the dispatcher sends e1 and gets 410; disabling the endpoint waits for the open
    // transaction, so the delivery it inserted is seen and failed with the others.
    const dispatching = dispatch(world);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await open;
    await dispatching;

    const res = await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`);
    expect(res.json().data.status).toBe('disabled');

    // docs/webhooks.md: "A disabled or deleted endpoint … its pending ones become failed".
    world.ctx.clock.advance(7 * 24 * 3600_000);
    await dispatch(world);
    const log = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    const stranded = log.find((d) => d.event_type === 'payment.failed')!;
    expect(stranded.attempts).toBe(0);
    expect(stranded.status).toBe('failed');
  },
);
