import { afterAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import {
  createEndpoint,
  deliveries,
  dispatch,
  emit,
  receiverEndpoint,
  startWebhookWorld,
} from './helpers.ts';

const world = await startWebhookWorld({ timeoutMs: 1000 });
afterAll(() => world.close());

describe('webhook delivery', () => {
  it('delivers a signed event that the standardwebhooks library verifies, with the API.md payload', async () => {
    const endpoint = await receiverEndpoint(world, '/signed');
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    const event = await emit(world.ctx, world.owner.workspaceId, 'payment.completed', {
      id: 'p1',
      amount_minor: '1050',
    });

    expect(await dispatch(world)).toBe(1);
    const [got] = world.receiver.received('/signed');
    expect(got!.verifiedWith).toEqual([endpoint.secret]);
    expect(got!.id).toBe(event.id);
    expect(got!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(got!.timestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(Object.keys(got!.payload)).toEqual([
      'id',
      'type',
      'created_at',
      'environment',
      'workspace_id',
      'data',
    ]);
    expect(got!.payload).toEqual({
      id: event.id,
      type: 'payment.completed',
      created_at: event.created_at,
      environment: 'sandbox',
      workspace_id: world.owner.workspaceId,
      data: { object: { id: 'p1', amount_minor: '1050' } },
    });

    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: 'payment.completed',
      url: endpoint.url,
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(logged!.delivered_at).not.toBeNull();
    // Nothing left to do.
    expect(await dispatch(world)).toBe(0);
  });

  it('sends only subscribed event types, to every subscribed endpoint, one delivery each', async () => {
    const payments = await receiverEndpoint(world, '/payments-only', ['payment.completed', 'payment.failed']);
    const keys = await receiverEndpoint(world, '/keys-only', ['api_key.revoked']);
    const before = world.receiver.requests.length;
    await emit(world.ctx, world.owner.workspaceId, 'payment.failed');
    await dispatch(world);
    expect(world.receiver.received('/payments-only')).toHaveLength(1);
    expect(world.receiver.received('/keys-only')).toHaveLength(0);

    // A real module's event: revoking an API key emits api_key.revoked.
    const key = await world.ctx.app.inject({
      method: 'POST',
      url: '/v1/sandbox/api-keys',
      headers: {
        authorization: `Bearer ${world.owner.sessionToken}`,
        'x-workspace-id': world.owner.workspaceId,
      },
      payload: { name: 'to revoke' },
    });
    await world.ctx.app.inject({
      method: 'DELETE',
      url: `/v1/sandbox/api-keys/${key.json().data.id}`,
      headers: {
        authorization: `Bearer ${world.owner.sessionToken}`,
        'x-workspace-id': world.owner.workspaceId,
      },
    });
    await dispatch(world);
    const [revoked] = world.receiver.received('/keys-only');
    expect(revoked!.payload.type).toBe('api_key.revoked');
    expect(revoked!.payload.data.object.id).toBe(key.json().data.id);
    expect(revoked!.verifiedWith).toHaveLength(1);
    expect(world.receiver.received('/payments-only')).toHaveLength(1);
    // Every other endpoint of the workspace (subscribed to all) got both events as well.
    expect(world.receiver.requests.length - before).toBeGreaterThan(2);
    expect(payments.event_types).toEqual(['payment.completed', 'payment.failed']);
    expect(keys.event_types).toEqual(['api_key.revoked']);
  });

  it('retries a 500 after about 5 s with the same webhook-id; the log then shows attempts 2', async () => {
    const endpoint = await receiverEndpoint(world, '/flaky');
    world.receiver.reply('/flaky', 500, 200);
    const event = await emit(world.ctx, world.owner.workspaceId);

    await dispatch(world);
    let [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
    });
    const wait = Date.parse(logged!.next_attempt_at!) - world.ctx.clock.now().getTime();
    expect(wait).toBeGreaterThan(4000);
    expect(wait).toBeLessThanOrEqual(5500);

    world.ctx.clock.advance(4000);
    expect(await dispatch(world)).toBe(0);
    expect(world.receiver.received('/flaky')).toHaveLength(1);

    world.ctx.clock.advance(1500);
    expect(await dispatch(world)).toBe(1);
    const got = world.receiver.received('/flaky');
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.id)).toEqual([event.id, event.id]);
    expect(got.every((r) => r.verifiedWith.length === 1)).toBe(true);
    [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_status_code: 200,
      last_error: null,
    });

    const detail = await world.api.get(`/v1/sandbox/webhooks/deliveries/${logged!.id}`);
    expect(detail.json().data.attempt_history.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 200,
    ]);
  });

  it('follows the whole schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) then fails; a manual retry sends once more', async () => {
    const endpoint = await receiverEndpoint(world, '/down');
    world.receiver.reply('/down', 503);
    await emit(world.ctx, world.owner.workspaceId);
    await dispatch(world);
    const expected = [5, 300, 1800, 7200, 18000, 36000, 36000];
    for (const [index, seconds] of expected.entries()) {
      const [before] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
      const wait = Date.parse(before!.next_attempt_at!) - world.ctx.clock.now().getTime();
      expect(wait / 1000).toBeGreaterThan(seconds * 0.9 - 1);
      expect(wait / 1000).toBeLessThan(seconds * 1.1 + 1);
      world.ctx.clock.advance(wait + 1);
      expect(await dispatch(world)).toBe(1);
      expect(world.receiver.received('/down')).toHaveLength(index + 2);
    }
    const [failed] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_status_code: 503,
      next_attempt_at: null,
    });
    world.ctx.clock.advance(48 * 3600_000);
    expect(await dispatch(world)).toBe(0);

    world.receiver.reply('/down', 200);
    const retried = await world.api.post(`/v1/sandbox/webhooks/deliveries/${failed!.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ status: 'pending', attempts: 8 });
    expect(await dispatch(world)).toBe(1);
    const [delivered] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 9, last_status_code: 200 });
    expect(new Set(world.receiver.received('/down').map((r) => r.id)).size).toBe(1);
  });

  it('410 Gone disables the endpoint at once and fails what it still had pending', async () => {
    const endpoint = await receiverEndpoint(world, '/gone');
    world.receiver.reply('/gone', 410);
    await emit(world.ctx, world.owner.workspaceId);
    await dispatch(world);
    const got = await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`);
    expect(got.json().data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status_code: 410,
      next_attempt_at: null,
    });
    // A disabled endpoint gets no new deliveries, and its deliveries cannot be retried until enabled again.
    await emit(world.ctx, world.owner.workspaceId);
    expect(await deliveries(world.api, `?endpoint_id=${endpoint.id}`)).toHaveLength(1);
    const retry = await world.api.post(`/v1/sandbox/webhooks/deliveries/${logged!.id}/retry`);
    expect(retry.statusCode).toBe(422);
    expect(retry.json().error).toBe('invalid_state');

    world.receiver.reply('/gone', 200);
    const enabled = await world.api.patch(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`, {
      status: 'enabled',
    });
    expect(enabled.json().data).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect((await world.api.post(`/v1/sandbox/webhooks/deliveries/${logged!.id}/retry`)).statusCode).toBe(
      200,
    );
    await dispatch(world);
    expect((await deliveries(world.api, `?endpoint_id=${endpoint.id}`))[0]).toMatchObject({
      status: 'delivered',
    });
  });

  it('disables an endpoint whose every attempt has failed for 5 days', async () => {
    const endpoint = await receiverEndpoint(world, '/dying');
    world.receiver.reply('/dying', 500);
    const day = 24 * 3600_000;
    for (let i = 0; i < 6; i++) {
      await emit(world.ctx, world.owner.workspaceId);
      await dispatch(world);
      const state = (await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).json().data;
      if (i < 5) expect(state.status).toBe('enabled');
      else expect(state).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
      world.ctx.clock.advance(day);
    }
    const log = await deliveries(world.api, `?endpoint_id=${endpoint.id}&status=pending`);
    expect(log).toHaveLength(0);
  });

  it('a success resets the 5-day failure clock', async () => {
    const endpoint = await receiverEndpoint(world, '/recovering');
    world.receiver.reply('/recovering', 500);
    await emit(world.ctx, world.owner.workspaceId);
    await dispatch(world);
    world.ctx.clock.advance(4 * 24 * 3600_000);
    world.receiver.reply('/recovering', 200);
    await emit(world.ctx, world.owner.workspaceId);
    await dispatch(world);
    world.receiver.reply('/recovering', 500);
    world.ctx.clock.advance(2 * 24 * 3600_000);
    await emit(world.ctx, world.owner.workspaceId);
    await dispatch(world);
    const state = (await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).json().data;
    expect(state.status).toBe('enabled');
  });

  it('rotation: old and new secrets both sign for 24 h, then only the new one', async () => {
    const endpoint = await receiverEndpoint(world, '/rotating', ['customer.created']);
    const rotated = await world.api.post(`/v1/sandbox/webhooks/endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data;
    expect(fresh.secret).toMatch(/^whsec_/);
    expect(fresh.secret).not.toBe(endpoint.secret);
    expect(Date.parse(fresh.previous_secret_expires_at) - world.ctx.clock.now().getTime()).toBeGreaterThan(
      23.9 * 3600_000,
    );
    world.receiver.setSecrets('/rotating', endpoint.secret, fresh.secret);

    await emit(world.ctx, world.owner.workspaceId, 'customer.created');
    await dispatch(world);
    const [during] = world.receiver.received('/rotating');
    expect(during!.signature.split(' ')).toHaveLength(2);
    expect(during!.verifiedWith).toEqual([endpoint.secret, fresh.secret]);

    world.ctx.clock.advance(24 * 3600_000 + 1000);
    await emit(world.ctx, world.owner.workspaceId, 'customer.created');
    await dispatch(world);
    const after = world.receiver.received('/rotating')[1]!;
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(after.verifiedWith).toEqual([fresh.secret]);
  });

  it('a hanging receiver does not hold up the others', async () => {
    const slow = await receiverEndpoint(world, '/hang', ['kyc.updated']);
    const fast = await receiverEndpoint(world, '/fast', ['kyc.updated']);
    world.receiver.reply('/hang', 'hang');
    for (let i = 0; i < 20; i++) await emit(world.ctx, world.owner.workspaceId, 'kyc.updated');

    // Rounds return while the hanging attempts are still in flight; the fast endpoint gets all 20
    // before any of them has ended. A 5 s attempt timeout, not the file's 1 s: on a loaded machine
    // twenty rounds can take longer than a second, and the check below would then fail for no fault.
    const dispatcher = new WebhookDispatcher({ random: () => 0.5, timeoutMs: 5000 });
    try {
      for (let round = 0; round < 100 && world.receiver.received('/fast').length < 20; round++) {
        await dispatcher.run(world.ctx.deps);
      }
      expect(world.receiver.received('/fast')).toHaveLength(20);
      const ended = await world.ctx.db.query(
        'SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)',
        [slow.id],
      );
      expect(ended.rows).toHaveLength(0);
      // The slow endpoint holds no more than its bound of attempts at once.
      expect(world.receiver.received('/hang').length).toBeLessThanOrEqual(8);
      await dispatcher.idle();
      const slowLog = await deliveries(world.api, `?endpoint_id=${slow.id}&limit=100`);
      expect(slowLog.filter((d) => d.attempts === 1)).toHaveLength(world.receiver.received('/hang').length);
      expect(slowLog.find((d) => d.attempts === 1)!.last_error).toBe('timeout after 5000 ms');
      const fastLog = await deliveries(world.api, `?endpoint_id=${fast.id}&limit=100`);
      expect(fastLog.every((d) => d.status === 'delivered')).toBe(true);
    } finally {
      await dispatcher.close();
    }
  });

  it('deleting an endpoint fails its pending deliveries and keeps its log', async () => {
    const endpoint = await createEndpoint(world.api, {
      url: world.receiver.url('/deleted'),
      event_types: ['wallet.created'],
    });
    await emit(world.ctx, world.owner.workspaceId, 'wallet.created');
    const removed = await world.api.delete(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`);
    expect(removed.json().data).toEqual({ id: endpoint.id, deleted: true });
    await dispatch(world);
    expect(world.receiver.received('/deleted')).toHaveLength(0);
    const [logged] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);
    expect(logged).toMatchObject({ status: 'failed', last_error: 'endpoint deleted', attempts: 0 });
    expect((await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).statusCode).toBe(404);
  });
});
