import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/sdk/src/index.ts';
import type { Captured } from '../support/child.ts';
import { type ListeningWorld, startListeningWorld } from '../support/listening-world.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import type { Workspace } from '../support/world.ts';
import { runCli, startListener, stop, waitForOutput } from './listen-helpers.ts';

let world: ListeningWorld;
let receiver: WebhookReceiver;
const listeners: Captured[] = [];

beforeAll(async () => {
  world = await startListeningWorld();
  receiver = await WebhookReceiver.start();
}, 60_000);
afterAll(async () => {
  for (const cli of listeners) await stop(cli);
  await receiver?.close();
  await world?.close();
});

async function listening(ws: Workspace, path: string, args: string[] = []) {
  const started = await startListener(world, ws, ['--forward-to', receiver.url(path), ...args]);
  listeners.push(started.cli);
  receiver.setSecrets(path, started.secret);
  return started;
}

async function customer(ws: Workspace, name: string): Promise<string> {
  const res = await ws.api.post('/v1/sandbox/customers', { display_name: name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

describe('lastro listen', () => {
  it('forwards the workspace events to the local URL, signed as deliveries are, and prints them', async () => {
    const ws = await world.workspace('Listen Forward');
    const { cli, secret } = await listening(ws, '/listen/forward', ['--print']);
    const payment = await ws.fund('4200');
    const received = await receiver.waitFor(1, '/listen/forward', 20_000);
    expect(received.map((r) => r.payload.type)).toEqual(['payment.completed']);
    for (const request of received) {
      expect(request.verifiedWith).toEqual([secret]);
      const event = verifyWebhook(secret, request.body, {
        'webhook-id': request.id,
        'webhook-timestamp': request.timestamp,
        'webhook-signature': request.signature,
      });
      expect(event.id).toBe(request.id);
      expect(event.data.object).toMatchObject({ id: payment.id });
    }
    const [completed] = received;
    await waitForOutput(cli, /^< ok$/m);
    const output = cli.output();
    expect(output).toContain(`> POST ${receiver.url('/listen/forward')}`);
    expect(output).toContain(`> webhook-id: ${completed!.id}`);
    expect(output).toContain(`> webhook-timestamp: ${completed!.timestamp}`);
    expect(output).toContain(`> webhook-signature: ${completed!.signature}`);
    expect(output).toContain(`> ${completed!.body}\n`);
    expect(output).toMatch(/^< 200\n< ok$/m);
  }, 60_000);

  it('forwards only the --events types and stops after --max-events', async () => {
    const ws = await world.workspace('Listen Filter');
    const { cli } = await listening(ws, '/listen/filter', [
      '--events',
      'customer.created',
      '--max-events',
      '1',
    ]);
    await ws.fund('100');
    const id = await customer(ws, 'Filtered');
    expect(await cli.exited).toBe(0);
    const received = receiver.received('/listen/filter');
    expect(received.map((r) => [r.payload.type, r.payload.data.object.id])).toEqual([
      ['customer.created', id],
    ]);
    expect(cli.output()).toMatch(/Stopped after 1 events; resume with --since [0-9a-f-]{36}/);
  }, 60_000);

  it('resumes after the last forwarded event when started again, without loss or duplicate', async () => {
    const ws = await world.workspace('Listen Resume');
    const state = `${process.env.TMPDIR ?? '/tmp'}/lastro-listen-${process.pid}-${Date.now()}`;
    const first = await listening(ws, '/listen/resume', ['--state-file', state]);
    const before = await customer(ws, 'Before');
    await waitForOutput(first.cli, /customer\.created .* -> 200/);
    await stop(first.cli);
    const whileDown = [await customer(ws, 'Down 1'), await customer(ws, 'Down 2')];
    const second = await listening(ws, '/listen/resume', ['--state-file', state]);
    expect(second.secret).toBe(first.secret);
    const after = await customer(ws, 'After');
    const received = await receiver.waitFor(4, '/listen/resume', 20_000);
    // A moment more: a duplicate would come now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ids = receiver.received('/listen/resume').map((r) => r.payload.data.object.id);
    expect(ids).toEqual([before, ...whileDown, after]);
    expect(received.every((r) => r.verifiedWith.length === 1)).toBe(true);
  }, 90_000);

  it('replays from --since an event id', async () => {
    const ws = await world.workspace('Listen Since');
    const ids = [await customer(ws, 'One'), await customer(ws, 'Two')];
    const events = (await ws.api.get('/v1/sandbox/events?type=customer.created')).json().data;
    const first = events.find((e: { data: { object: { id: string } } }) => e.data.object.id === ids[0]);
    await listening(ws, '/listen/since', ['--since', first.id]);
    const [replayed] = await receiver.waitFor(1, '/listen/since', 20_000);
    expect(replayed!.payload.data.object.id).toBe(ids[1]);
  }, 60_000);

  it('refuses a bad command line with exit status 2 and a reason', async () => {
    const ws = await world.workspace('Listen Usage');
    const cli = runCli(world, ws, ['listen', '--forward-to', 'ftp://x', '--events', 'payment.created']);
    expect(await cli.exited).toBe(2);
    expect(cli.output()).toContain('--forward-to must be an absolute http(s) URL');
    const unknown = runCli(world, ws, ['listen', '--forward-to', 'http://127.0.0.1:1/', '--events', 'nope']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('unknown event types: nope');
  }, 60_000);
});
