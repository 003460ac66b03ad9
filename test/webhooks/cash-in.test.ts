import { afterAll, describe, expect, it } from 'vitest';
import { deliveries, dispatch, receiverEndpoint, startWebhookWorld } from './helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

describe('end to end: a sandbox PIX cash-in', () => {
  it('produces a payment.completed delivery that the reference library verifies, logged delivered with attempts 1', async () => {
    const endpoint = await receiverEndpoint(world, '/cash-in', ['payment.completed']);
    const res = await world.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '12345' });
    expect(res.statusCode).toBe(200);
    const payment = res.json().data;
    expect(payment.status).toBe('completed');

    expect(await dispatch(world)).toBe(1);
    const [got] = world.receiver.received('/cash-in');
    expect(got!.verifiedWith).toEqual([endpoint.secret]);
    expect(got!.payload).toMatchObject({
      type: 'payment.completed',
      environment: 'sandbox',
      workspace_id: world.owner.workspaceId,
      data: { object: payment },
    });

    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({
      event_id: got!.id,
      event_type: 'payment.completed',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
    });
    const event = (await world.api.get(`/v1/sandbox/events/${got!.id}`)).json().data;
    expect(event.data.object).toEqual(payment);
  });
});
