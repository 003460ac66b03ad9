import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/platform/schema.ts';
import { authHeaders, createApiKey, signupOwner, startWorld } from '../support/world.ts';

/** The app logging at info into lines this test reads; `extend` adds hooks before it is ready. */
async function loggedApp(extend: (app: App) => void = () => {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const world = await startWorld();
  const app = await buildApp(
    { ...world.deps, config: { ...world.deps.config, logLevel: 'info' } },
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
    // What a handler or the error handler writes about the request goes through request.log.
    const { app, records, close } = await loggedApp((app) =>
      app.addHook('preHandler', (request, _reply, done) => {
        request.log.warn('probe');
        done();
      }),
    );
    try {
      const { owner } = await listAuditEvents(app, 'log-test-2');
      const probe = records().find((r) => r.reqId === 'log-test-2' && r.msg === 'probe');
      expect(probe).toMatchObject({ workspace_id: owner.workspaceId, route: '/v1/:env/audit-events' });
    } finally {
      await close();
    }
  });
});
