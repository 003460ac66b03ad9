/**
 * Fastify's requestTimeout and connectionTimeout were once 0, so a client that sends headers
 * with Content-Length: 1000 and then 9 bytes holds its connection (and a socket of ours) for ever.
 * A few hundred such clients exhaust the server. The request must time out and the connection close.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp({ requestTimeoutMs: 500, headersTimeoutMs: 500, keepAliveTimeoutMs: 500 });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(() => ctx.close());

/** Resolves true when the server closes the socket, false if it is still open after `boundMs`. */
function closedWithin(socket: net.Socket, boundMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), boundMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.on('error', () => {});
  });
}

describe('a request body that never finishes', () => {
  it('headers promising 1000 bytes, then 9 bytes: the server closes the connection', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.resume();
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":',
    );
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const closed = await closedWithin(socket, 5000);
    socket.destroy();
    expect(closed).toBe(true);
    // Answered in the error contract before the close.
    const text = Buffer.concat(received).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!)).toEqual({
      error: 'request_timeout',
      message: expect.any(String),
    });
  });

  it('headers that never end: the server closes the connection', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.resume();
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
    const closed = await closedWithin(socket, 5000);
    socket.destroy();
    expect(closed).toBe(true);
  });
});
