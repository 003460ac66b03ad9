/**
 * The database going away (issue 18, item 5), on a private PostgreSQL cluster this test starts and
 * stops itself: while it is down every request is 503 database_unavailable with Retry-After (never
 * a 500) and /ready says not ready; once it is back the same process serves again, unrestarted.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../scripts/soak/client.ts';
import { freePort } from '../../scripts/soak/net.ts';
import { waitReady } from '../../scripts/soak/outage.ts';
import { type PrivateCluster, startPrivateCluster } from '../../scripts/soak/postgres.ts';
import { type Service, service } from '../../scripts/soak/processes.ts';

const canRun = (() => {
  try {
    return (
      process.getuid?.() === 0 &&
      existsSync('/usr/lib/postgresql/15/bin/initdb') &&
      Boolean(execFileSync('id', ['-u', 'postgres']))
    );
  } catch {
    return false;
  }
})();

let cluster: PrivateCluster;
let app: Service;
let api: { token: string; workspaceId: string };

describe.skipIf(!canRun)('PostgreSQL going away and coming back', () => {
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE lastro_outage');
    await admin.end();
    app = service(
      {
        DATABASE_URL: cluster.url.replace(/\/postgres$/, '/lastro_outage'),
        MASTER_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
        DATA_DIR: '/tmp',
      },
      await freePort(),
    );
    app.start('api');
    expect(await waitReady(app.base, 90_000), app.tail()).toBe(true);
    const signup = await call(
      app.base,
      'POST',
      '/v1/auth/signup',
      {},
      {
        email: `outage-${randomUUID()}@example.com`,
        password: 'correct horse battery staple',
        workspace_name: 'Outage',
      },
    );
    const session = { token: signup.body.data.session_token, workspaceId: signup.body.data.workspace.id };
    const key = await call(app.base, 'POST', '/v1/sandbox/api-keys', session, { name: 'outage' });
    api = { token: key.body.data.secret, workspaceId: session.workspaceId };
  }, 180_000);
  afterAll(async () => {
    await app?.stopAll();
    cluster?.stop();
  });

  it('answers 503 database_unavailable with Retry-After while it is down, then recovers by itself', async () => {
    await cluster.halt('immediate');
    const answers = [
      await call(app.base, 'GET', '/ready'),
      await call(app.base, 'GET', '/v1/sandbox/payments', api),
      await call(
        app.base,
        'POST',
        '/v1/sandbox/simulate/pix/cash-in',
        api,
        { amount_minor: '100' },
        { 'idempotency-key': 'outage-1' },
      ),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.error).toBe('database_unavailable');
      expect(Number(answer.headers!.get('retry-after'))).toBeGreaterThan(0);
    }
    await cluster.resume();
    expect(await waitReady(app.base, 60_000)).toBe(true);
    const cashIn = await call(
      app.base,
      'POST',
      '/v1/sandbox/simulate/pix/cash-in',
      api,
      { amount_minor: '100' },
      { 'idempotency-key': 'outage-1' },
    );
    expect(cashIn.status, cashIn.text).toBe(200);
    expect((await call(app.base, 'GET', '/v1/sandbox/payments', api)).body.data).toHaveLength(1);
  }, 120_000);
});
