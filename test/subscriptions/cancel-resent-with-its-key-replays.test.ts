/**
 * A cancel whose answer was lost is sent again with the same Idempotency-Key: it gets the first
 * answer again, not 422 for the subscription the first request cancelled. The same key on another
 * subscription's cancel is 409 and cancels nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { addDays, monthly, sandboxToday } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace();
const start = addDays(await sandboxToday(ws), 10);

describe('a subscription cancel sent again', () => {
  it('replays its first answer; the key on another subscription is 409 and cancels nothing', async () => {
    const create = async () => (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data;
    const [first, second] = [await create(), await create()];
    const key = { 'idempotency-key': `cancel-${first.id}` };
    const cancelled = await ws.api.post(`/v1/sandbox/subscriptions/${first.id}/cancel`, {}, key);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const again = await ws.api.post(`/v1/sandbox/subscriptions/${first.id}/cancel`, {}, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(cancelled.json());
    const other = await ws.api.post(`/v1/sandbox/subscriptions/${second.id}/cancel`, {}, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reuse');
    const still = await ws.api.get(`/v1/sandbox/subscriptions/${second.id}`);
    expect(still.json().data.status).toBe('pending_authorisation');
  });
});
