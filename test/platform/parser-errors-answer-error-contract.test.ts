/**
 * Errors raised by Node's HTTP parser never reach Fastify's error handler, so they
 * bypassed the error contract: a header over 16 KB answered
 * `{"error":"Request Header Fields Too Large",…,"statusCode":431}`, a malformed header
 * `{"error":"Bad Request","message":"Client Error"}`, neither with X-Request-Id or a documented code.
 * Checked over a raw socket on 127.0.0.1, since inject() never runs the HTTP parser.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/platform/errors.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(() => ctx.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads one response (until the server closes, at most 5 s). */
function exchange(request: string | Buffer): Promise<RawResponse> {
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
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.on('connect', () => socket.write(request));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectContract(res: RawResponse, status: number, code: string) {
  expect(res.status, res.body).toBe(status);
  expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ error: code, message: expect.any(String) });
  expect(Object.keys(body).filter((key) => !['error', 'message', 'details'].includes(key))).toEqual([]);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toMatch(UUID);
}

describe('parser-level errors answer the error contract', () => {
  it('a header over 16 KB → 431 headers_too_large', async () => {
    const res = await exchange(
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectContract(res, 431, 'headers_too_large');
    expect(res.headers.connection).toBe('close');
  });

  it('a malformed header → 400 invalid_request', async () => {
    const res = await exchange('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: y\r\n\r\n');
    expectContract(res, 400, 'invalid_request');
    expect(res.headers.connection).toBe('close');
  });

  it('a request line that is not HTTP → 400 invalid_request', async () => {
    const res = await exchange('HELLO\r\n\r\n');
    expectContract(res, 400, 'invalid_request');
  });

  it('a body over 1 MiB (by Content-Length) → 413 payload_too_large', async () => {
    const res = await exchange(
      'POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n{}',
    );
    expectContract(res, 413, 'payload_too_large');
  });

  it('a body that is not JSON → the contract, naming the content type', async () => {
    const res = await exchange(
      'POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi',
    );
    expectContract(res, 400, 'invalid_request');
  });

  it('a path with broken percent-encoding → 400 invalid_request', async () => {
    const res = await exchange(
      'GET /v1/sandbox/payments/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expectContract(res, 400, 'invalid_request');
  });
});
