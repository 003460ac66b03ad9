import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/platform/schema.ts';
import { until } from '../support/until.ts';
import { authHeaders, createApiKey, signupOwner, startWorld } from '../support/world.ts';

/** The app logging at info into lines this test reads; `extend` adds hooks before it is ready. */
async function loggedApp(extend: (app: App) => void = () => {}, logLevel: 'info' | 'debug' = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const world = await startWorld();
  const app = await buildApp(
    { ...world.deps, config: { ...world.deps.config, logLevel } },
    { logStream: stream },
  );
  extend(app);
  await app.ready();
  const records = () => lines.map((line) => JSON.parse(line));
  const close = async () => {
    await app.close();
    await world.close();
  };
  return { app, lines, records, close };
}

/** What a handler or the error handler writes about a request goes through request.log: a line so. */
const logProbe = (app: App) =>
  app.addHook('preHandler', (request, _reply, done) => {
    request.log.warn({ body: { password: 'hunter2', note: 'kept' } }, 'probe');
    done();
  });

/** A new owner's key lists its audit events under the given request id. */
async function listAuditEvents(app: App, requestId: string, withSessionCookie = false) {
  const owner = await signupOwner(app);
  const key = await createApiKey(app, owner);
  const cookie = withSessionCookie ? { cookie: `lastro_session=${owner.sessionToken}` } : {};
  const res = await app.inject({
    method: 'GET',
    url: '/v1/sandbox/audit-events',
    headers: { ...authHeaders(key.secret, owner.workspaceId), ...cookie, 'x-request-id': requestId },
  });
  expect(res.statusCode).toBe(200);
  return { owner, key };
}

describe('logs', () => {
  it('carry request id, workspace id and route, and never a credential', async () => {
    const { app, lines, records, close } = await loggedApp();
    try {
      const { owner, key } = await listAuditEvents(app, 'log-test-1', true);
      const completed = records().find((r) => r.reqId === 'log-test-1' && r.msg === 'request completed');
      expect(completed).toMatchObject({
        workspace_id: owner.workspaceId,
        route: '/v1/:env/audit-events',
        req: { method: 'GET', url: '/v1/sandbox/audit-events' },
        res: { statusCode: 200 },
      });
      expect(typeof completed.responseTime).toBe('number');
      // One line a request: the answer's line says what the arrival's said.
      expect(records().filter((r) => r.reqId === 'log-test-1')).toHaveLength(1);
      const all = lines.join('\n');
      expect(all).not.toContain(key.secret);
      expect(all).not.toContain(owner.sessionToken);
      expect(all).not.toContain(owner.password);
    } finally {
      await close();
    }
  });

  it("name the request's route and workspace on the lines its own logger writes", async () => {
    const { app, records, close } = await loggedApp(logProbe);
    try {
      const { owner } = await listAuditEvents(app, 'log-test-2');
      const probe = records().find((r) => r.reqId === 'log-test-2' && r.msg === 'probe');
      expect(probe).toMatchObject({ workspace_id: owner.workspaceId, route: '/v1/:env/audit-events' });
      // The request's own logger still redacts what it is given.
      expect(probe?.body).toEqual({ password: '[redacted]', note: 'kept' });
    } finally {
      await close();
    }
  });

  it('name the route of a request no key signs, from its first line', async () => {
    const { app, records, close } = await loggedApp(logProbe);
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { 'x-request-id': 'log-test-3' },
      });
      expect(res.statusCode).toBe(200);
      const probe = records().find((r) => r.reqId === 'log-test-3' && r.msg === 'probe');
      expect(probe).toMatchObject({ route: '/openapi.json' });
    } finally {
      await close();
    }
  });

  it('write the arrival of a request too at debug level', async () => {
    const { app, records, close } = await loggedApp(() => {}, 'debug');
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { 'x-request-id': 'log-test-6' },
      });
      expect(res.statusCode).toBe(200);
      expect(
        records()
          .filter((r) => r.reqId === 'log-test-6')
          .map((r) => r.msg),
      ).toEqual(['incoming request', 'request completed']);
    } finally {
      await close();
    }
  });

  it('write a line for a request refused before routing', async () => {
    const { app, records, close } = await loggedApp();
    try {
      const res = await app.inject({ method: 'GET', url: '/%zz', headers: { 'x-request-id': 'log-test-4' } });
      expect(res.statusCode).toBe(400);
      expect(records().filter((r) => r.reqId === 'log-test-4')).toMatchObject([
        { msg: 'request refused before routing', code: 'FST_ERR_BAD_URL', req: { method: 'GET' } },
      ]);
    } finally {
      await close();
    }
  });

  it('write a line for a request whose client went away before its answer', async () => {
    let arrived = false;
    let release = () => {};
    const { app, records, close } = await loggedApp((app) =>
      app.get('/slow', async () => {
        arrived = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { ok: true };
      }),
    );
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const client = request({
        port,
        host: '127.0.0.1',
        path: '/slow',
        headers: { 'x-request-id': 'log-test-5' },
      });
      client.on('error', () => {});
      client.end();
      expect(await until(() => arrived, 5000)).toBe(true);
      client.destroy();
      const aborted = () => records().find((r) => r.reqId === 'log-test-5' && r.msg === 'request aborted');
      expect(await until(() => aborted() !== undefined, 5000)).toBe(true);
      expect(aborted()).toMatchObject({ route: '/slow', req: { method: 'GET', url: '/slow' } });
    } finally {
      release();
      await close();
    }
  });
});
