/**
 * The crash test of the PIX issue: the server process is killed (SIGKILL) right after a payout is
 * acknowledged and before the provider is called; once restarted, the payout completes exactly once
 * with the balances right, and a retry of its Idempotency-Key replays it.
 *
 * The first process runs `serve --no-workers`, so that nothing can reach the provider before the
 * kill: that is the window between the commit of the payout (payment, debit, send job) and the
 * worker's call, made deterministic.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { serverHarness } from '../support/server-process.ts';
import { CPF, SETTLEMENT_KEY } from './support.ts';

const server = serverHarness('crash', 0);
const { call, start, waitFor, withServerDb } = server;

afterAll(() => server.cleanup());

describe('a payout survives a SIGKILL between its acknowledgement and the provider call', () => {
  it('is created, not sent; after a restart it completes exactly once, balances right, key replays', async () => {
    await server.prepare();

    // 1. A server that acknowledges payouts but sends nothing.
    const first = start(['serve', '--no-workers']);
    const up = await server.healthy(120_000);
    expect(up, first.output()).toBe(true);

    const { session, workspaceId, api } = await server.owner('Crash Ltda');

    expect((await api('POST', '/v1/sandbox/simulate/pix/cash-in', { amount_minor: '10000' })).status).toBe(
      200,
    );
    const sk = await call('PUT', '/v1/sandbox/settlement-key', session, workspaceId, SETTLEMENT_KEY);
    expect(sk.status, sk.text).toBe(200);

    const payoutBody = { amount_minor: '2500', pix_key: CPF };
    const idem = { 'idempotency-key': 'crash-payout-1' };
    const payout = await api('POST', '/v1/sandbox/pix/payouts', payoutBody, idem);
    // acknowledged… and killed at once
    first.child.kill('SIGKILL');
    expect(payout.status, payout.text).toBe(200);
    expect(payout.body.data).toMatchObject({ status: 'created', amount_minor: '2500', fee_minor: '100' });
    const paymentId: string = payout.body.data.id;
    expect((await first.exited).signal).toBe('SIGKILL');

    // 2. What the kill left: the payment and its send job committed, nothing at the provider.
    await withServerDb(async (db) => {
      const payment = await db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [
        paymentId,
      ]);
      expect(payment.rows).toEqual([{ status: 'created' }]);
      const sent = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_pix_transfers');
      expect(sent.rows[0]!.n).toBe(0);
      const jobs = await db.query<{ kind: string }>(
        "SELECT kind FROM jobs WHERE done_at IS NULL AND payload->>'paymentId' = $1",
        [paymentId],
      );
      expect(jobs.rows).toEqual([{ kind: 'pix.send' }]);
    });

    // 3. Restart with the workers: the payout completes.
    const second = start(['serve']);
    expect(await server.healthy(120_000), second.output()).toBe(true);
    const completed = await waitFor(
      async () => (await api('GET', `/v1/sandbox/payments/${paymentId}`)).body.data.status === 'completed',
      20_000,
    );
    expect(completed, second.output()).toBe(true);
    const done = (await api('GET', `/v1/sandbox/payments/${paymentId}`)).body.data;
    expect(done.pix_tx_id).toMatch(/^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/);
    expect(done.pix_key).toBe('tesouraria@acme.com.br');

    const balances = await api('GET', '/v1/sandbox/balances?currency=BRL');
    const byKind = Object.fromEntries(
      (balances.body.data as { kind: string; balance_minor: string }[]).map((b) => [b.kind, b.balance_minor]),
    );
    expect(byKind).toMatchObject({ available: '7400', locked: '0' });

    // A retry of the same key after the restart replays the same payment.
    const retry = await api('POST', '/v1/sandbox/pix/payouts', payoutBody, idem);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.body.data.id).toBe(paymentId);

    const events = await api('GET', '/v1/sandbox/events?limit=100');
    const types = (events.body.data as { type: string; data: { object: { id: string } } }[])
      .filter((e) => e.data.object.id === paymentId)
      .map((e) => e.type)
      .sort();
    expect(types).toEqual(['payment.completed', 'payment.created', 'payment.processing']);

    // Let a few more worker rounds pass: nothing more happens.
    await new Promise((resolve) => setTimeout(resolve, 600));
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    // 4. Exactly one provider transfer, one settlement journal, one payout.
    await withServerDb(async (db) => {
      const transfers = await db.query<{ payment_id: string; amount: string; pix_key: string }>(
        'SELECT payment_id, amount::text AS amount, pix_key FROM sandbox_pix_transfers',
      );
      expect(transfers.rows).toEqual([
        { payment_id: paymentId, amount: '2500', pix_key: 'tesouraria@acme.com.br' },
      ]);
      const journals = await db.query<{ kinds: string[] }>(
        `SELECT array_agg(p.kind ORDER BY p.kind) AS kinds FROM ledger_journals j
           JOIN ledger_postings p ON p.journal_id = j.id
          WHERE j.reference_type = 'payment' AND j.reference_id = $1 GROUP BY j.id`,
        [paymentId],
      );
      const settlements = journals.rows.filter((row) => row.kinds.includes('pix_settlement'));
      expect(settlements).toHaveLength(1);
      expect(settlements[0]!.kinds).toEqual(['fee_revenue', 'locked', 'pix_settlement']);
      expect(journals.rows).toHaveLength(2); // the lock at creation, the settlement
      const payouts = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM payments WHERE kind = 'pix_cash_out'",
      );
      expect(payouts.rows[0]!.n).toBe(1);
    });
  }, 300_000);
});
