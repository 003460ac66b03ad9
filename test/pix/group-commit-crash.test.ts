/**
 * Group commit under a SIGKILL (issue 14): 240 payouts of one merchant race into shared transactions
 * and the server is killed while batches are open. Every acknowledged payout must exist exactly once
 * with its hold; nothing that was not committed may have moved money; and after a restart, retrying
 * every key gives each exactly one payment (a replay when it had committed, a first run otherwise),
 * with the books adding up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { serverHarness } from '../support/server-process.ts';
import { CPF, httpMerchant } from './support.ts';

const server = serverHarness('gccrash', 2000, { GROUP_COMMIT_LANES: '2' });
const { start, withServerDb, healthy } = server;
afterAll(() => server.cleanup());

const PAYOUTS = 240;
const FUNDING = 10_000_000n;
const AMOUNT = 100n;
const FEE = 100n;

describe('payouts in group commit survive a SIGKILL mid-batch', () => {
  it('acknowledged payouts exist once with their hold; retries after the restart settle every key once', async () => {
    await server.prepare();
    const first = start(['serve', '--no-workers']);
    expect(await healthy(90_000), first.output()).toBe(true);

    const { workspaceId, api: call } = await httpMerchant(server, 'Group Crash', String(FUNDING));
    const api = (url: string, body: unknown, headers?: Record<string, string>) =>
      call('POST', url, body, headers);

    const body = { amount_minor: String(AMOUNT), pix_key: CPF };
    const keys = Array.from({ length: PAYOUTS }, (_, i) => `gc-crash-${i}`);
    const acknowledged = new Map<string, string>();
    let killed = false;
    const sent = keys.map(async (idempotencyKey) => {
      const res = await api('/v1/sandbox/pix/payouts', body, { 'idempotency-key': idempotencyKey }).catch(
        () => undefined,
      );
      if (res?.status === 200 && !killed) acknowledged.set(idempotencyKey, res.body.data.id);
      // Killed once a few batches have committed: the ones open at that moment die with the process.
      if (acknowledged.size >= 20 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    });
    await Promise.all(sent);
    expect(killed, first.output()).toBe(true);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(acknowledged.size).toBeLessThan(PAYOUTS);

    // What the kill left: each acknowledged payout once, with its available → locked hold; every
    // payment in the books has its hold and its idempotency record, and nothing else moved.
    await withServerDb(async (db) => {
      const { rows } = await db.query<{ id: string; key: string; holds: number; recorded: boolean }>(
        `SELECT p.id, p.idempotency_key AS key,
                (SELECT count(*)::int FROM ledger_journals j WHERE j.reference_type = 'payment' AND j.reference_id = p.id::text) AS holds,
                EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.workspace_id = p.workspace_id AND k.key = p.idempotency_key AND k.status_code = 200) AS recorded
           FROM payments p WHERE p.workspace_id = $1 AND p.kind = 'pix_cash_out'`,
        [workspaceId],
      );
      const byKey = new Map(rows.map((row) => [row.key, row]));
      expect(byKey.size).toBe(rows.length);
      for (const [idempotencyKey, id] of acknowledged) expect(byKey.get(idempotencyKey)?.id).toBe(id);
      for (const row of rows) expect(row).toMatchObject({ holds: 1, recorded: true });
      const locked = await lockedBalance(db, workspaceId);
      expect(locked).toBe(BigInt(rows.length) * (AMOUNT + FEE));
    });

    // Restarted, every key is retried: acknowledged ones replay, the others run now (or replay when
    // their batch had committed without anyone being told). Each key ends with exactly one payout.
    const second = start(['serve', '--no-workers']);
    expect(await healthy(90_000), second.output()).toBe(true);
    for (const idempotencyKey of keys) {
      const res = await api('/v1/sandbox/pix/payouts', body, { 'idempotency-key': idempotencyKey });
      expect(res.status, res.text).toBe(200);
      if (acknowledged.has(idempotencyKey)) expect(res.body.data.id).toBe(acknowledged.get(idempotencyKey));
    }
    second.child.kill('SIGKILL');
    await second.exited;
    await withServerDb(async (db) => {
      const { rows } = await db.query<{ n: number; keys: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys FROM payments
          WHERE workspace_id = $1 AND kind = 'pix_cash_out'`,
        [workspaceId],
      );
      expect(rows[0]).toEqual({ n: PAYOUTS, keys: PAYOUTS });
      expect(await lockedBalance(db, workspaceId)).toBe(BigInt(PAYOUTS) * (AMOUNT + FEE));
    });
  }, 300_000);
});

async function lockedBalance(
  db: { query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> },
  workspaceId: string,
) {
  const { rows } = await db.query<{ balance: bigint | null }>(
    `SELECT sum(b.balance)::bigint AS balance FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
      WHERE a.workspace_id = $1 AND a.kind = 'locked'`,
    [workspaceId],
  );
  return rows[0]!.balance ?? 0n;
}
