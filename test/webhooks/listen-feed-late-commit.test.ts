/**
 * The events feed `lastro listen` reads answers events in id order, and an id is taken inside its
 * transaction: one that commits more than a second after taking its id must still be read by a
 * reader that moved past a later id meanwhile. Needs two connections: runs on PostgreSQL
 * (TEST_DATABASE_URL); PGlite runs one transaction at a time.
 */
import { afterAll, expect, it } from 'vitest';
import { emitEvent } from '../../src/platform/outbox.ts';
import { onRealPostgres } from '../support/database.ts';
import { emit, startWebhookWorld } from './helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.skipIf(!onRealPostgres())(
  'an event whose transaction commits seconds after taking its id still reaches a reader of the feed',
  async () => {
    const { start_after } = (await world.api.get('/v1/sandbox/webhooks/listen-session')).json().data;
    // A transaction takes its event's id, then waits (a lock, a slow statement) before committing.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lateId = '';
    const open = world.ctx.db.transaction(async (tx) => {
      const event = await emitEvent(tx, {
        workspaceId: world.owner.workspaceId,
        environment: 'sandbox',
        type: 'payment.failed',
        object: { id: 'late' },
      });
      lateId = event.id;
      await gate;
    });
    await sleep(1200);
    const later = await emit(world.ctx, world.owner.workspaceId, 'payment.completed', { id: 'later' });
    await sleep(1200);

    // A reader polls while the first transaction is still open, then again after it commits.
    const read: string[] = [];
    let after = start_after as string;
    const poll = async () => {
      const res = await world.api.get(`/v1/sandbox/events?after=${after}`);
      expect(res.statusCode, res.body).toBe(200);
      for (const event of res.json().data as { id: string }[]) {
        read.push(event.id);
        after = event.id;
      }
    };
    try {
      await poll();
    } finally {
      release();
      await open;
    }
    await sleep(1200);
    await poll();
    expect(read).toEqual([lateId, later.id]);
  },
  30_000,
);
