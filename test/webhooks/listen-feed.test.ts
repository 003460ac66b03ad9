import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import type { Workspace } from '../support/world.ts';
import { runCli } from './listen-helpers.ts';

let world: ListeningWorld;
let receiver: WebhookReceiver;
let ws: Workspace;

beforeAll(async () => {
  world = await startListeningWorld();
  receiver = await WebhookReceiver.start();
  ws = await world.workspace('Listen Feed');
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await world?.close();
});

const session = async () => (await ws.api.get('/v1/sandbox/webhooks/listen-session')).json().data;

describe('the events feed lastro listen reads', () => {
  it('answers, after an id, the events that followed it oldest first, waiting for one with wait_ms', async () => {
    const { start_after: start } = await session();
    const waiting = ws.api.get(`/v1/sandbox/events?after=${start}&wait_ms=15000`);
    const customers = [];
    for (const name of ['First', 'Second'])
      customers.push((await ws.api.post('/v1/sandbox/customers', { display_name: name })).json().data.id);
    const answered = await waiting;
    expect(answered.statusCode, answered.body).toBe(200);
    const first = answered.json().data;
    expect(first.length).toBeGreaterThanOrEqual(1);
    expect(first[0].data.object.id).toBe(customers[0]);
    const rest = await ws.api.get(`/v1/sandbox/events?after=${first.at(-1).id}&wait_ms=15000`);
    const all = [...first, ...rest.json().data];
    expect(all.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toEqual(customers);
  }, 60_000);

  it('answers an empty list once wait_ms has passed without an event', async () => {
    const { start_after: start } = await session();
    const res = await ws.api.get(`/v1/sandbox/events?after=${start}&wait_ms=300`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });

  it('refuses cursor with after, wait_ms without after, and wait_ms over 25 s, with 400 invalid_request', async () => {
    const { start_after: start } = await session();
    for (const [query, field] of [
      [`after=${start}&cursor=${start}`, 'querystring.cursor'],
      ['wait_ms=100', 'querystring.wait_ms'],
    ]) {
      const res = await ws.api.get(`/v1/sandbox/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', details: [{ field }] });
    }
    const tooLong = await ws.api.get(`/v1/sandbox/events?after=${start}&wait_ms=25001`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toBe('invalid_request');
  });

  it('gives the same listen secret to every listener of a workspace and environment, another to another', async () => {
    const again = await session();
    expect((await session()).secret).toBe(again.secret);
    expect(again.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const other = await world.workspace('Listen Feed Other');
    const theirs = (await other.api.get('/v1/sandbox/webhooks/listen-session')).json().data;
    expect(theirs.secret).not.toBe(again.secret);
    expect(theirs.workspace_id).toBe(other.owner.workspaceId);
  });
});

describe('lastro trigger', () => {
  it('creates the sandbox activity that emits the event', async () => {
    for (const type of ['payment.created', 'customer.created']) {
      const cli = runCli(world, ws, ['trigger', type]);
      expect(await cli.exited, cli.output()).toBe(0);
      const [, id] = /^Triggered \S+: .* (\S+)$/m.exec(cli.output())!;
      const events = (await ws.api.get(`/v1/sandbox/events?type=${type}`)).json().data;
      expect(events[0].data.object.id).toBe(id);
    }
  }, 60_000);

  it('refuses an event it cannot make, naming those it can', async () => {
    const cli = runCli(world, ws, ['trigger', 'api_key.revoked']);
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toContain('lastro trigger cannot make api_key.revoked; it makes payment.created');
  }, 30_000);
});

describe('the delivery log', () => {
  it('shows the headers and the body every attempt sends, as the receiver got them', async () => {
    const endpoint = (
      await ws.api.post('/v1/sandbox/webhooks/endpoints', {
        url: receiver.url('/log'),
        event_types: ['payment.completed'],
      })
    ).json().data;
    receiver.setSecrets('/log', endpoint.secret);
    await ws.fund('4200');
    const [got] = await receiver.waitFor(1, '/log', 20_000);
    const list = (await ws.api.get(`/v1/sandbox/webhooks/deliveries?endpoint_id=${endpoint.id}`)).json().data;
    const res = await ws.api.get(`/v1/sandbox/webhooks/deliveries/${list[0].id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.request).toEqual({
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Lastro-Webhooks/1.0',
        'webhook-id': got!.id,
      },
      body: got!.body,
      body_truncated: false,
    });
  }, 60_000);
});
