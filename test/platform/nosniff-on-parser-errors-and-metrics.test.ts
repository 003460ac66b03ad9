/**
 * Every answer carries nosniff. The header was once set in an onRequest hook, which the
 * answers written before routing never run through. An HTTP parser error (answerClientError, a raw
 * response on the socket), a path with broken percent-encoding (frameworkErrors, answered before the
 * hooks) and every answer of the operators' metrics listener still went out without
 * `X-Content-Type-Options: nosniff`.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/platform/metrics-server.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(() => ctx.close());

/** Sends raw bytes and returns the response head (lower-cased header names). */
function exchange(request: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no complete response within 5 s'));
    }, 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    socket.on('connect', () => socket.write(request));
  });
}

it('an HTTP parser error carries nosniff', async () => {
  const res = await exchange('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: y\r\n\r\n');
  expect(res.status).toBe(400);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

it('a path with broken percent-encoding carries nosniff', async () => {
  const res = await exchange(
    'GET /v1/sandbox/payments/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  );
  expect(res.status).toBe(400);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

it('the metrics listener’s answers carry nosniff', async () => {
  const server = await startMetricsServer({ db: ctx.db, host: '127.0.0.1', port: 0 });
  try {
    for (const path of ['/health', '/nope']) {
      const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
      await res.text();
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  } finally {
    await server.close();
  }
});
