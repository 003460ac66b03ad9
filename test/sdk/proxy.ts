import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: pass it on, or answer it itself (after passing it on, if `forwardFirst`). */
export type ProxyStep = 'forward' | { status: number; retryAfter?: string; forwardFirst?: boolean };

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A small HTTP proxy on 127.0.0.1 in front of the real server: each request takes the next step of
 * the script (then 'forward' for ever), so a test can make the network fail the way it wants.
 */
export class ScriptedProxy {
  readonly seen: SeenRequest[] = [];
  private constructor(
    private readonly server: http.Server,
    private readonly target: string,
    private readonly script: ProxyStep[],
  ) {}

  static async start(target: string, script: ProxyStep[] = []): Promise<ScriptedProxy> {
    const server = http.createServer();
    const proxy = new ScriptedProxy(server, target, script);
    server.on('request', (req, res) => void proxy.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const step = this.script.shift() ?? 'forward';
    const forwarded = step === 'forward' || step.forwardFirst ? await this.forward(req, body) : undefined;
    if (step === 'forward') {
      const answer = forwarded!;
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(answer.body));
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'proxy' };
    if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
    const code = step.status === 429 ? 'rate_limited' : 'provider_unavailable';
    res.writeHead(step.status, headers).end(JSON.stringify({ error: code, message: 'from the test proxy' }));
  }

  private async forward(req: http.IncomingMessage, body: string) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    const response = await fetch(`${this.target}${req.url}`, {
      method: req.method,
      headers,
      body: ['GET', 'HEAD'].includes(req.method ?? '') ? undefined : body,
    });
    const responseHeaders = new Headers(response.headers);
    responseHeaders.delete('content-length');
    responseHeaders.delete('content-encoding');
    responseHeaders.delete('transfer-encoding');
    responseHeaders.delete('connection');
    responseHeaders.delete('keep-alive');
    return { status: response.status, headers: responseHeaders, body: await response.arrayBuffer() };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
