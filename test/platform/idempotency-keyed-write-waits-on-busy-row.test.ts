/**
 * PostgreSQL only: runIdempotentWrite once opened its transaction with `SET LOCAL lock_timeout = 10s`
 * meant for the wait on a duplicate Idempotency-Key, but the setting covers every statement of the
 * write. A payout with an Idempotency-Key that waits more than 10 s on its party's balance row
 * (a busy hot account) fails with 55P03 from inside the ledger, which nothing maps: 500
 * internal_error. The same payout without the header just waits and succeeds.
 * Run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { accountId, partyAccount } from '../../src/ledger/accounts.ts';
import { onRealPostgres } from '../support/database.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe.skipIf(!onRealPostgres())('idempotent write and row locks', () => {
  it('a payout with Idempotency-Key waiting on a busy balance row is not a 500', {
    timeout: 60_000,
  }, async () => {
    const ws = await world.workspace('Lock timeout', { settlementKey: true, fund: '100000' });
    const account = accountId(
      partyAccount(ws.owner.workspaceId, 'sandbox', ws.owner.defaultPartyId, 'BRL', 'available'),
    );
    // Another transaction holds the balance row for 12 s (a long batch on a hot account).
    const { rows } = await world.db.query<{ db: string }>('SELECT current_database() AS db');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${rows[0]!.db}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT balance FROM ledger_balances WHERE account_id = $1 FOR UPDATE', [account]);
      const payout = ws.api.post(
        '/v1/sandbox/pix/payouts',
        { amount_minor: '1000', pix_key: 'a@b.com' },
        { 'idempotency-key': 'busy-1' },
      );
      await new Promise((r) => setTimeout(r, 12_000));
      await holder.query('COMMIT');
      const res = await payout;
      expect(res.statusCode, res.body).not.toBe(500);
    } finally {
      await holder.end();
    }
  });
});
