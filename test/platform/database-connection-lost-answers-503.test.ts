/**
 * PostgreSQL only: a request's transaction waits on a row lock and its backend is terminated
 * (pg_terminate_backend, a failover, a restart). transaction() in src/db/postgres.ts checked the
 * client out with pool.connect() and never listened for its 'error', so pg's
 * `Connection terminated unexpectedly` became an unhandled 'error' event and the whole process
 * exited; the request itself got 500 internal_error. It must answer 503 database_unavailable with
 * Retry-After, and the process must keep serving once the database answers again.
 * Run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountId, partyAccount } from '../../src/ledger/accounts.ts';
import { type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';

describe.skipIf(!onRealPostgres())('a lost PostgreSQL connection', () => {
  let ctx: TestContext;
  let ws: PixWorkspace;
  let holder: pg.Client;

  beforeAll(async () => {
    ctx = await startTestApp();
    ws = await pixWorkspace(ctx, 'Lost connection');
    await ws.setSettlementKey();
    await ws.cashIn('100000');
    const { rows } = await ctx.db.query<{ db: string }>('SELECT current_database() AS db');
    holder = new pg.Client({ connectionString: withDatabase(testServerUrl()!, rows[0]!.db) });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await ctx?.close();
  });

  /** The pid of this database's one backend waiting on a lock (bounded wait: 200 × 25 ms). */
  async function waitingBackend(): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await holder.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (rows.length === 1) return rows[0]!.pid;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no request backend waited on the lock');
  }

  it('a request whose backend is terminated answers 503 database_unavailable; the app serves on', {
    timeout: 30_000,
  }, async () => {
    const account = accountId(
      partyAccount(ws.owner.workspaceId, 'sandbox', ws.owner.defaultPartyId, 'BRL', 'available'),
    );
    await holder.query('BEGIN');
    let pending: ReturnType<typeof ws.api.post> | undefined;
    try {
      await holder.query('SELECT balance FROM ledger_balances WHERE account_id = $1 FOR UPDATE', [account]);
      pending = ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: 'a@b.com' });
      const pid = await waitingBackend();
      await holder.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await holder.query('ROLLBACK');
    }
    const res = await pending!;
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('database_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-request-id']).toBeTruthy();

    // The process is still here, and the next request gets a healthy connection.
    const next = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: 'a@b.com' });
    expect(next.statusCode, next.body).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});
