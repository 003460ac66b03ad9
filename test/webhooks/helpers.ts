import { type DispatcherOptions, WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import type { Environment } from '../../src/platform/context.ts';
import { type EventType, emitEvent } from '../../src/platform/outbox.ts';
import type { TestContext } from '../support/app.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { type Client, type Owner, startWorld, type Workspace, type World } from '../support/world.ts';

export type { Client } from '../support/world.ts';

/** The test world of the webhook tests, with a receiver and a dispatcher; `owner` and `api` are `ws`'s. */
export interface WebhookWorld {
  ctx: World;
  receiver: WebhookReceiver;
  dispatcher: WebhookDispatcher;
  ws: Workspace;
  owner: Owner;
  api: Client;
  close(): Promise<void>;
}

/** An app whose sandbox may deliver to the local receiver on 127.0.0.1, a receiver, and a dispatcher run by hand. */
export async function startWebhookWorld(options: DispatcherOptions = {}): Promise<WebhookWorld> {
  const ctx = await startWorld({ webhookAllowPrivate: true });
  const receiver = await WebhookReceiver.start();
  const dispatcher = new WebhookDispatcher({ random: () => 0.5, ...options });
  const ws = await ctx.workspace('Webhook Owner');
  return {
    ctx,
    receiver,
    dispatcher,
    ws,
    owner: ws.owner,
    api: ws.api,
    close: async () => {
      await dispatcher.close();
      await receiver.close();
      await ctx.close();
    },
  };
}

export async function createEndpoint(
  api: Client,
  body: { url: string; event_types?: string[]; description?: string },
  env = 'sandbox',
) {
  const res = await api.post(`/v1/${env}/webhooks/endpoints`, body);
  if (res.statusCode !== 200) throw new Error(`endpoint creation failed: ${res.statusCode} ${res.body}`);
  return res.json().data as {
    id: string;
    secret: string;
    url: string;
    event_types: string[];
    status: string;
  };
}

/** An endpoint on the receiver at `path` whose secret the receiver verifies with. */
export async function receiverEndpoint(world: WebhookWorld, path: string, eventTypes?: string[]) {
  const endpoint = await createEndpoint(world.api, {
    url: world.receiver.url(path),
    ...(eventTypes ? { event_types: eventTypes } : {}),
  });
  world.receiver.setSecrets(path, endpoint.secret);
  return endpoint;
}

/** Commits an event the way every module does: through emitEvent in a transaction. */
export function emit(
  ctx: TestContext,
  workspaceId: string,
  type: EventType = 'payment.completed',
  object: unknown = { id: 'pay_1', amount_minor: '1050', status: 'completed' },
  environment: Environment = 'sandbox',
) {
  return ctx.db.transaction((tx) => emitEvent(tx, { workspaceId, environment, type, object }));
}

/** One dispatcher round, waiting for every attempt it started. */
export async function dispatch(world: Pick<WebhookWorld, 'ctx' | 'dispatcher'>): Promise<number> {
  const claimed = await world.dispatcher.run(world.ctx.deps);
  await world.dispatcher.idle();
  return claimed;
}

export async function deliveries(api: Client, query = '', env = 'sandbox') {
  const res = await api.get(`/v1/${env}/webhooks/deliveries${query}`);
  if (res.statusCode !== 200) throw new Error(`delivery log failed: ${res.statusCode} ${res.body}`);
  return res.json().data as Array<{
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
    delivered_at: string | null;
    url: string;
  }>;
}
