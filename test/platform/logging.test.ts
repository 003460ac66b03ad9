import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { authHeaders, createApiKey, signupOwner, startWorld } from '../support/world.ts';

describe('logs', () => {
  it('carry request id, workspace id and route, and never a credential', async () => {
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
    await app.ready();
    try {
      const owner = await signupOwner(app);
      const key = await createApiKey(app, owner);
      const res = await app.inject({
        method: 'GET',
        url: '/v1/sandbox/audit-events',
        headers: {
          ...authHeaders(key.secret, owner.workspaceId),
          cookie: `lastro_session=${owner.sessionToken}`,
          'x-request-id': 'log-test-1',
        },
      });
      expect(res.statusCode).toBe(200);
      const records = lines.map((line) => JSON.parse(line));
      const completed = records.find((r) => r.reqId === 'log-test-1' && r.msg === 'request completed');
      expect(completed).toMatchObject({ workspace_id: owner.workspaceId, route: '/v1/:env/audit-events' });
      const all = lines.join('\n');
      expect(all).not.toContain(key.secret);
      expect(all).not.toContain(owner.sessionToken);
      expect(all).not.toContain(owner.password);
    } finally {
      await app.close();
      await world.close();
    }
  });
});
