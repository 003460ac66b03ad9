import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, with what the reference Standard Webhooks library made of it. */
export interface ReceivedWebhook {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: {
    id: string;
    type: string;
    workspace_id: string;
    environment: string;
    data: { object: Record<string, unknown> };
  };
  /** The secrets (of those set for the path) whose signature the library verified. */
  verifiedWith: string[];
  at: number;
}

type Reply = number | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1 that verifies every request with the standardwebhooks library.
 * Each path answers its own script of statuses (the last one repeats); 'hang' never answers.
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string[]>();
  private readonly replies = new Map<string, Reply[]>();
  private readonly waiters: Array<() => void> = [];
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The secrets to verify requests on `path` with (the endpoint's current and, during rotation, previous). */
  setSecrets(path: string, ...secrets: string[]): void {
    this.secrets.set(path, secrets);
  }

  reply(path: string, ...statuses: Reply[]): void {
    this.replies.set(path, statuses);
  }

  received(path?: string): ReceivedWebhook[] {
    return path === undefined ? this.requests : this.requests.filter((r) => r.path === path);
  }

  /** Waits until `count` requests arrived on `path` (or anywhere). */
  async waitFor(count: number, path?: string, timeoutMs = 5000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(path).length < count) {
      if (Date.now() > deadline)
        throw new Error(`receiver: ${this.received(path).length}/${count} requests on ${path ?? '*'}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received(path);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const verifiedWith = (this.secrets.get(path) ?? []).filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      let payload: ReceivedWebhook['payload'];
      try {
        payload = JSON.parse(body);
      } catch {
        payload = undefined as never;
      }
      this.requests.push({
        path,
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        payload,
        verifiedWith,
        at: Date.now(),
      });
      for (const wake of this.waiters.splice(0)) wake();
      const script = this.replies.get(path) ?? [200];
      const next = script.length > 1 ? script.shift()! : script[0]!;
      if (next === 'hang') {
        this.hanging.add(res);
        return;
      }
      res.writeHead(next, { 'content-type': 'text/plain' }).end('ok');
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
