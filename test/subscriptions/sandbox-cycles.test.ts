/**
 * A sandbox subscription, authorised by the simulator, runs its cycles on the workspace's test clock:
 * twelve months advanced are twelve cycles charged and credited, a failed payment is retried as its
 * policy allows, and nothing is charged after a cancellation. Each step has its event.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addMonths } from '../../src/modules/subscriptions/schedule.ts';
import { startWorld } from '../support/world.ts';
import { addDays, advanceTo, monthly, sandboxToday, subscriptionEvents } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());

async function activeSubscription(ws: Awaited<ReturnType<typeof world.workspace>>, extra = {}) {
  const start = addDays(await sandboxToday(ws), 7);
  const created = await ws.api.post('/v1/sandbox/subscriptions', monthly(start, extra));
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().data.id as string;
  const authorised = await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/authorise`, {
    approve: true,
  });
  expect(authorised.statusCode, authorised.body).toBe(200);
  expect(authorised.json().data.status).toBe('active');
  return { id, start };
}

describe('sandbox subscription cycles', () => {
  it('advanced twelve months, charges and credits twelve monthly cycles once each', async () => {
    const ws = await world.workspace();
    const { id, start } = await activeSubscription(ws);
    await advanceTo(world, ws, addMonths(start, 11));
    // The task running again over the same clock changes nothing.
    await runSubscriptionCycles(world.deps, { environment: 'sandbox', workspaceId: ws.owner.workspaceId });
    const sub = (await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data;
    expect(sub).toMatchObject({ status: 'active', cycles_paid: 12, next_due_date: addMonths(start, 12) });
    expect(await ws.balances()).toMatchObject({ available: String(12 * 3500) });
    expect(await ws.paymentCount('pix_automatic')).toBe(12);
    const events = await subscriptionEvents(ws.api, id);
    expect(events.slice(0, 2)).toEqual(['subscription.created', 'subscription.authorised']);
    expect(events.filter((type) => type === 'subscription.cycle_scheduled')).toHaveLength(12);
    expect(events.filter((type) => type === 'subscription.cycle_paid')).toHaveLength(12);
    const payments = (await ws.api.get('/v1/sandbox/payments?kind=pix_automatic&limit=100')).json().data;
    expect(payments.every((p: { status: string }) => p.status === 'completed')).toBe(true);
  });

  it('two task runs at once charge and credit each cycle once', async () => {
    const ws = await world.workspace();
    const { id, start } = await activeSubscription(ws);
    await ws.api.post('/v1/sandbox/test-clock/advance', { days: 100 });
    const scope = { environment: 'sandbox' as const, workspaceId: ws.owner.workspaceId };
    await Promise.all([runSubscriptionCycles(world.deps, scope), runSubscriptionCycles(world.deps, scope)]);
    const sub = (await ws.api.get(`/v1/sandbox/subscriptions/${id}`)).json().data;
    const paid = Number(sub.cycles_paid);
    expect(sub.next_due_date).toBe(addMonths(start, paid));
    expect(await ws.paymentCount('pix_automatic')).toBeLessThanOrEqual(paid + 1);
    expect(await ws.balances()).toMatchObject({ available: String(paid * 3500) });
    const events = await subscriptionEvents(ws.api, id);
    expect(events.filter((type) => type === 'subscription.cycle_paid')).toHaveLength(paid);
  });

  it('retries a failed payment within the policy, then credits it', async () => {
    const ws = await world.workspace();
    const { id, start } = await activeSubscription(ws, { retry_policy: 'three_in_seven_days' });
    const fail = await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/fail-payments`, { attempts: 2 });
    expect(fail.statusCode, fail.body).toBe(200);
    await advanceTo(world, ws, start);
    expect(await ws.balances()).toMatchObject({ available: '0' });
    await advanceTo(world, ws, addDays(start, 4));
    expect(await ws.balances()).toMatchObject({ available: '3500' });
    const events = await subscriptionEvents(ws.api, id);
    expect(events.filter((type) => type.startsWith('subscription.cycle_'))).toEqual([
      'subscription.cycle_scheduled',
      'subscription.cycle_retrying',
      'subscription.cycle_retrying',
      'subscription.cycle_paid',
    ]);
  });

  it('fails a cycle whose policy allows no retry, and charges the next one', async () => {
    const ws = await world.workspace();
    const { id, start } = await activeSubscription(ws);
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${id}/fail-payments`, {});
    await advanceTo(world, ws, addMonths(start, 1));
    expect(await ws.balances()).toMatchObject({ available: '3500' });
    const events = (await subscriptionEvents(ws.api, id)).filter((type) =>
      type.startsWith('subscription.cycle_'),
    );
    expect(events).toEqual([
      'subscription.cycle_scheduled',
      'subscription.cycle_failed',
      'subscription.cycle_scheduled',
      'subscription.cycle_paid',
    ]);
    const payments = (await ws.api.get('/v1/sandbox/payments?kind=pix_automatic')).json().data;
    expect(payments.map((p: { status: string }) => p.status).sort()).toEqual(['completed', 'failed']);
  });

  it('stops after cancellation: the scheduled cycle expires and nothing more is charged', async () => {
    const ws = await world.workspace();
    const { id, start } = await activeSubscription(ws);
    await advanceTo(world, ws, addMonths(start, 1));
    await advanceTo(world, ws, addDays(addMonths(start, 2), -4));
    const cancelled = await ws.api.post(`/v1/sandbox/subscriptions/${id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'receiver',
      next_due_date: null,
    });
    await advanceTo(world, ws, addMonths(start, 6));
    expect(await ws.balances()).toMatchObject({ available: '7000' });
    const again = await ws.api.post(`/v1/sandbox/subscriptions/${id}/cancel`, {});
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');
    const events = await subscriptionEvents(ws.api, id);
    expect(events.at(-1)).toBe('subscription.cancelled');
    expect(events.filter((type) => type === 'subscription.cycle_paid')).toHaveLength(2);
    const payments = (await ws.api.get('/v1/sandbox/payments?kind=pix_automatic')).json().data;
    expect(payments.map((p: { status: string }) => p.status).sort()).toEqual([
      'completed',
      'completed',
      'expired',
    ]);
  });

  it('expires when the payer never answers before its start date', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const created = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data;
    await advanceTo(world, ws, start);
    expect((await ws.api.get(`/v1/sandbox/subscriptions/${created.id}`)).json().data.status).toBe(
      'pending_authorisation',
    );
    await advanceTo(world, ws, addDays(start, 1));
    const sub = (await ws.api.get(`/v1/sandbox/subscriptions/${created.id}`)).json().data;
    expect(sub).toMatchObject({ status: 'expired', next_due_date: null, cycles_paid: 0 });
    expect(await subscriptionEvents(ws.api, created.id)).toEqual([
      'subscription.created',
      'subscription.expired',
    ]);
    expect(await ws.paymentCount('pix_automatic')).toBe(0);
  });

  it('completes after the cycle of its end date', async () => {
    const ws = await world.workspace();
    const start = addDays(await sandboxToday(ws), 7);
    const end = addMonths(start, 2);
    const created = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start, { end_date: end }))).json()
      .data;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${created.id}/authorise`, { approve: true });
    await advanceTo(world, ws, addMonths(start, 4));
    const sub = (await ws.api.get(`/v1/sandbox/subscriptions/${created.id}`)).json().data;
    expect(sub).toMatchObject({ status: 'completed', cycles_paid: 3, next_due_date: null });
    expect((await subscriptionEvents(ws.api, created.id)).at(-1)).toBe('subscription.completed');
  });
});
