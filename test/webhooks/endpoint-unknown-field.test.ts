/**
 * An endpoint subscribes with `event_types`; without it, to every event. A camelCase `eventTypes` is
 * refused rather than dropped (dropped, the endpoint was subscribed to everything).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('webhook endpoint body', () => {
  it('an endpoint with eventTypes is refused and none is created', async () => {
    const ws = await world.workspace('Hooks');
    const res = await ws.api.post('/v1/sandbox/webhooks/endpoints', {
      url: 'https://example.com/hooks',
      eventTypes: ['payment.completed'],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_request',
      details: [{ field: 'body.eventTypes', issue: 'unknown field' }],
    });
    expect((await ws.api.get('/v1/sandbox/webhooks/endpoints')).json().data).toEqual([]);
  });

  it('a PATCH with a field an endpoint cannot change (secret) is refused', async () => {
    const ws = await world.workspace('Hooks patch');
    const created = await ws.api.post('/v1/sandbox/webhooks/endpoints', { url: 'https://example.com/a' });
    const id = created.json().data.id;
    const res = await ws.api.patch(`/v1/sandbox/webhooks/endpoints/${id}`, { secret: 'whsec_mine' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: 'body.secret', issue: 'unknown field' }]);
  });
});
