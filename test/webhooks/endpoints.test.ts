import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, Owner } from '../support/world.ts';
import {
  createEndpoint,
  deliveries,
  dispatch,
  emit,
  receiverEndpoint,
  startWebhookWorld,
} from './helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());

describe('webhook endpoints', () => {
  it('creates with the secret once, then lists, gets, updates and deletes without it', async () => {
    const created = await world.api.post(
      '/v1/sandbox/webhooks/endpoints',
      { url: 'https://example.com/hooks', description: 'main' },
      { 'idempotency-key': 'create-endpoint-1' },
    );
    expect(created.statusCode).toBe(200);
    const endpoint = created.json().data;
    expect(endpoint).toMatchObject({
      workspace_id: world.owner.workspaceId,
      environment: 'sandbox',
      url: 'https://example.com/hooks',
      description: 'main',
      event_types: ['*'],
      status: 'enabled',
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    // The Idempotency-Key replays the same creation.
    const replay = await world.api.post(
      '/v1/sandbox/webhooks/endpoints',
      { url: 'https://example.com/hooks', description: 'main' },
      { 'idempotency-key': 'create-endpoint-1' },
    );
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(endpoint.id);

    const got = (await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).json().data;
    expect(got.secret).toBeUndefined();
    expect(got.id).toBe(endpoint.id);
    const list = (await world.api.get('/v1/sandbox/webhooks/endpoints')).json().data;
    expect(list.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(list.every((e: { secret?: string }) => e.secret === undefined)).toBe(true);

    const updated = await world.api.patch(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`, {
      url: 'https://example.org/other',
      event_types: ['payment.completed'],
      description: null,
      status: 'disabled',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      url: 'https://example.org/other',
      event_types: ['payment.completed'],
      description: null,
      status: 'disabled',
      disabled_reason: 'disabled_by_user',
    });

    expect((await world.api.delete(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).statusCode).toBe(200);
    expect((await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await world.api.delete(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).statusCode).toBe(404);
    const after = (await world.api.get('/v1/sandbox/webhooks/endpoints')).json().data;
    expect(after.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });

  it('refuses bad bodies with 400 invalid_request', async () => {
    for (const body of [
      {},
      { url: 'not a url' },
      { url: 'ftp://example.com/x' },
      { url: 'https://user:pass@example.com/x' },
      { url: 'https://example.com/x', event_types: [] },
      { url: 'https://example.com/x', event_types: ['payment.unknown'] },
      { url: 'https://example.com/x', event_types: ['payment.completed', 'payment.completed'] },
      { url: 42 },
    ]) {
      const res = await world.api.post('/v1/sandbox/webhooks/endpoints', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    const res = await world.api.patch('/v1/sandbox/webhooks/endpoints/01890000-0000-7000-8000-000000000000', {
      status: 'paused',
    });
    expect(res.statusCode).toBe(400);
  });

  it('is for workspace-level callers: a party-scoped key gets 403 forbidden', async () => {
    const scoped = await world.ws.keyFor(await world.ws.addParty('C'));
    for (const res of [
      await scoped.get('/v1/sandbox/webhooks/endpoints'),
      await scoped.post('/v1/sandbox/webhooks/endpoints', { url: 'https://example.com/x' }),
      await scoped.get('/v1/sandbox/webhooks/deliveries'),
      await scoped.get('/v1/sandbox/events'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    // An owner session works too.
    expect((await world.ws.session.get('/v1/sandbox/webhooks/endpoints')).statusCode).toBe(200);
  });

  it('paginates endpoints with limit and cursor, and refuses an out-of-bounds limit', async () => {
    for (let i = 0; i < 3; i++)
      await createEndpoint(world.api, {
        url: `https://example.com/page/${i}`,
        event_types: ['payment.refunded'],
      });
    const first = (await world.api.get('/v1/sandbox/webhooks/endpoints?limit=2')).json().data;
    expect(first).toHaveLength(2);
    const next = (await world.api.get(`/v1/sandbox/webhooks/endpoints?limit=2&cursor=${first[1].id}`)).json()
      .data;
    expect(next[0].id < first[1].id).toBe(true);
    expect((await world.api.get('/v1/sandbox/webhooks/endpoints?limit=0')).statusCode).toBe(400);
    expect((await world.api.get('/v1/sandbox/webhooks/endpoints?limit=101')).statusCode).toBe(400);
  });
});

describe('events API and delivery log filters', () => {
  it('lists and gets events, newest first, filtered by type', async () => {
    const a = await emit(world.ctx, world.owner.workspaceId, 'customer.created', { id: 'c1' });
    const b = await emit(world.ctx, world.owner.workspaceId, 'customer.updated', { id: 'c1' });
    const all = (await world.api.get('/v1/sandbox/events?limit=2')).json().data;
    expect(all.map((e: { id: string }) => e.id)).toEqual([b.id, a.id]);
    expect(all[0]).toEqual(b);
    const created = (await world.api.get('/v1/sandbox/events?type=customer.created')).json().data;
    expect(created.map((e: { id: string }) => e.id)).toEqual([a.id]);
    expect((await world.api.get(`/v1/sandbox/events/${a.id}`)).json().data).toEqual(a);
    expect((await world.api.get('/v1/test/events?limit=1')).json().data[0].id).toBe(b.id);
    expect((await world.api.get('/v1/sandbox/events?type=nope')).statusCode).toBe(400);
    expect((await world.api.get(`/v1/sandbox/events?cursor=${b.id}&limit=1`)).json().data[0].id).toBe(a.id);
  });

  it('filters deliveries by status, event_type and endpoint_id, with limit and cursor', async () => {
    const ok = await receiverEndpoint(world, '/filters-ok', ['kyc.updated', 'kyc.rfi.created']);
    const bad = await receiverEndpoint(world, '/filters-bad', ['kyc.updated']);
    world.receiver.reply('/filters-bad', 500);
    await emit(world.ctx, world.owner.workspaceId, 'kyc.updated');
    await emit(world.ctx, world.owner.workspaceId, 'kyc.rfi.created');
    await dispatch(world);

    const okLog = await deliveries(world.api, `?endpoint_id=${ok.id}`);
    expect(okLog.map((d) => d.event_type)).toEqual(['kyc.rfi.created', 'kyc.updated']);
    const badLog = await deliveries(world.api, `?endpoint_id=${bad.id}`);
    expect(badLog).toHaveLength(1);
    expect(badLog[0]).toMatchObject({ status: 'pending', last_status_code: 500 });

    const pending = await deliveries(world.api, '?status=pending&event_type=kyc.updated');
    expect(pending.map((d) => d.id)).toContain(badLog[0]!.id);
    expect(pending.every((d) => d.status === 'pending' && d.event_type === 'kyc.updated')).toBe(true);
    const narrowed = await deliveries(
      world.api,
      `?status=pending&event_type=kyc.updated&endpoint_id=${bad.id}`,
    );
    expect(narrowed.map((d) => d.id)).toEqual([badLog[0]!.id]);
    const delivered = await deliveries(
      world.api,
      `?status=delivered&endpoint_id=${ok.id}&event_type=kyc.updated`,
    );
    expect(delivered).toHaveLength(1);
    expect(await deliveries(world.api, `?status=failed&endpoint_id=${ok.id}`)).toHaveLength(0);

    const page1 = await deliveries(world.api, `?endpoint_id=${ok.id}&limit=1`);
    const page2 = await deliveries(world.api, `?endpoint_id=${ok.id}&limit=1&cursor=${page1[0]!.id}`);
    expect([...page1, ...page2].map((d) => d.id)).toEqual(okLog.map((d) => d.id));

    for (const query of ['?status=sent', '?event_type=nope', '?endpoint_id=abc', '?limit=0', '?limit=101']) {
      const res = await world.api.get(`/v1/sandbox/webhooks/deliveries${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });
});

describe('tenant isolation', () => {
  let other: Owner;
  let otherApi: Client;

  beforeAll(async () => {
    const ws = await world.ctx.workspace('Other Tenant');
    other = ws.owner;
    otherApi = ws.api;
  });

  it("never sends one workspace's events to another's endpoints", async () => {
    await receiverEndpoint(world, '/tenant-a', ['subaccount.created']);
    const theirs = await createEndpoint(otherApi, {
      url: world.receiver.url('/tenant-b'),
      event_types: ['subaccount.created'],
    });
    world.receiver.setSecrets('/tenant-b', theirs.secret);
    const event = await emit(world.ctx, world.owner.workspaceId, 'subaccount.created');
    await dispatch(world);
    expect(world.receiver.received('/tenant-a').map((r) => r.id)).toEqual([event.id]);
    expect(world.receiver.received('/tenant-b')).toHaveLength(0);

    const otherEvent = await emit(world.ctx, other.workspaceId, 'subaccount.created');
    await dispatch(world);
    expect(world.receiver.received('/tenant-b').map((r) => r.id)).toEqual([otherEvent.id]);
    expect(world.receiver.received('/tenant-b')[0]!.verifiedWith).toEqual([theirs.secret]);
    expect(world.receiver.received('/tenant-a')).toHaveLength(1);
  });

  it("answers 404 for another workspace's endpoints, deliveries and events, and never lists them", async () => {
    const endpoint = await receiverEndpoint(world, '/isolated', ['quote.executed']);
    const event = await emit(world.ctx, world.owner.workspaceId, 'quote.executed');
    await dispatch(world);
    const [delivery] = await deliveries(world.api, `?endpoint_id=${endpoint.id}`);

    const notFound = [
      await otherApi.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`),
      await otherApi.patch(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`, { status: 'disabled' }),
      await otherApi.post(`/v1/sandbox/webhooks/endpoints/${endpoint.id}/rotate-secret`),
      await otherApi.delete(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`),
      await otherApi.get(`/v1/sandbox/webhooks/deliveries/${delivery!.id}`),
      await otherApi.post(`/v1/sandbox/webhooks/deliveries/${delivery!.id}/retry`),
      await otherApi.get(`/v1/sandbox/events/${event.id}`),
      // The same workspace in the other environment does not see sandbox records either.
      await world.ws.session.get(`/v1/live/webhooks/endpoints/${endpoint.id}`),
    ];
    for (const res of notFound) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const otherIds = [
      ...(await otherApi.get('/v1/sandbox/webhooks/endpoints?limit=100')).json().data,
      ...(await deliveries(otherApi, '?limit=100')),
      ...(await otherApi.get('/v1/sandbox/events?limit=100')).json().data,
    ].map((r: { id: string }) => r.id);
    expect(otherIds).not.toContain(endpoint.id);
    expect(otherIds).not.toContain(delivery!.id);
    expect(otherIds).not.toContain(event.id);
    expect(await deliveries(otherApi, `?endpoint_id=${endpoint.id}`)).toHaveLength(0);
    // Still enabled and untouched after the other tenant's attempts.
    expect((await world.api.get(`/v1/sandbox/webhooks/endpoints/${endpoint.id}`)).json().data.status).toBe(
      'enabled',
    );
  });

  it('keeps sandbox and live apart within one workspace', async () => {
    const live = await world.ws.liveApi();
    const liveEndpoint = await createEndpoint(live, { url: 'https://example.com/live' }, 'live');
    expect((await world.api.get(`/v1/sandbox/webhooks/endpoints/${liveEndpoint.id}`)).statusCode).toBe(404);
    const sandboxIds = (await world.api.get('/v1/sandbox/webhooks/endpoints?limit=100'))
      .json()
      .data.map((e: { id: string }) => e.id);
    expect(sandboxIds).not.toContain(liveEndpoint.id);
    const event = await emit(world.ctx, world.owner.workspaceId, 'payment.created');
    expect((await live.get(`/v1/live/events/${event.id}`)).statusCode).toBe(404);
    expect(await deliveries(live, '', 'live')).toHaveLength(0);
  });
});
