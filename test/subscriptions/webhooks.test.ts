/**
 * An endpoint subscribed to subscription events receives, signed, one delivery per state change and
 * per cycle step: created, authorised, the cycle scheduled and paid, cancelled.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/modules/subscriptions/schedule.ts';
import { receiverEndpoint, startWebhookWorld } from '../webhooks/helpers.ts';
import { addDays, advanceTo, monthly, sandboxToday } from './support.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

const TYPES = [
  'subscription.created',
  'subscription.authorised',
  'subscription.cycle_scheduled',
  'subscription.cycle_paid',
  'subscription.cancelled',
];

describe('subscription webhooks', () => {
  it('delivers each subscription event to the endpoint that subscribes to it', async () => {
    await receiverEndpoint(world, '/subscriptions', TYPES);
    const { ws } = world;
    const start = addDays(await sandboxToday(ws), 7);
    const sub = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/authorise`, { approve: true });
    await advanceTo(world.ctx, ws, start);
    await advanceTo(world.ctx, ws, addDays(addMonths(start, 1), -10));
    await ws.api.post(`/v1/sandbox/subscriptions/${sub.id}/cancel`, {});
    for (let round = 0; round < 20 && world.receiver.requests.length < TYPES.length; round++)
      await world.dispatcher.run(world.ctx.deps);
    const received = await world.receiver.waitFor(TYPES.length, '/subscriptions', 10_000);
    const payloads = received.map((hook) => JSON.parse(hook.body));
    expect(payloads.map((p) => p.type).sort()).toEqual([...TYPES].sort());
    const paid = payloads.find((p) => p.type === 'subscription.cycle_paid').data.object;
    expect(paid).toMatchObject({
      subscription_id: sub.id,
      sequence: 1,
      due_date: start,
      amount_minor: '3500',
      status: 'paid',
    });
    const cancelled = payloads.find((p) => p.type === 'subscription.cancelled').data.object;
    expect(cancelled).toMatchObject({
      id: sub.id,
      status: 'cancelled',
      cancelled_by: 'receiver',
      cycles_paid: 1,
    });
  });
});
