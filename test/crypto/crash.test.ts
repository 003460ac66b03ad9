/**
 * The crash test of crypto sends: the server is killed (SIGKILL) right after a send is acknowledged and
 * before the chain is called; once restarted, the send completes exactly once with the balances right,
 * and a retry of its Idempotency-Key replays it. The first process runs `serve --no-workers`, so that
 * nothing can reach the chain before the kill (the window between commit and the worker's call).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isTxHash } from '../../src/providers/chain/tx-hash.ts';
import { serverHarness } from '../support/server-process.ts';
import { OUTSIDE } from './support.ts';

const server = serverHarness('cryptocrash', 1000);
afterAll(() => server.cleanup());

describe('a crypto send survives a SIGKILL between its acknowledgement and the chain call', () => {
  it('is created, not broadcast; after a restart it completes exactly once, balances right, key replays', async () => {
    await server.prepare();
    const first = server.start(['serve', '--no-workers']);
    expect(await server.healthy(), first.output()).toBe(true);

    const { session, workspaceId } = await server.owner('Crash Cripto');
    const key = await server.call('POST', '/v1/sandbox/api-keys', session, workspaceId, { name: 'crash' });
    const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
      server.call(method, url, key.body.data.secret, workspaceId, body, headers);

    const wallet = (await api('POST', '/v1/sandbox/wallets', { network: 'polygon' })).body.data;
    const deposit = await api('POST', '/v1/sandbox/simulate/crypto/deposit', {
      wallet_id: wallet.id,
      currency: 'USDT',
      amount_minor: '100000000',
    });
    expect(deposit.status, deposit.text).toBe(200);
    const listed = await server.call('POST', '/v1/sandbox/whitelist', session, workspaceId, {
      network: 'polygon',
      address: OUTSIDE.evm,
    });
    expect(listed.status, listed.text).toBe(200);

    const body = { amount_minor: '25000000', to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
    const idem = { 'idempotency-key': 'crash-send-1' };
    const sent = await api('POST', '/v1/sandbox/crypto/send', body, idem);
    first.child.kill('SIGKILL');
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'created', amount_minor: '25000000', fee_minor: '50000' });
    const paymentId: string = sent.body.data.id;
    expect((await first.exited).signal).toBe('SIGKILL');

    // What the kill left: the payment and its send job, nothing on chain for it.
    await server.withServerDb(async (db) => {
      const payment = await db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [
        paymentId,
      ]);
      expect(payment.rows).toEqual([{ status: 'created' }]);
      const onChain = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sandbox_chain_transfers WHERE payment_id IS NOT NULL',
      );
      expect(onChain.rows[0]!.n).toBe(0);
      const jobs = await db.query<{ kind: string }>(
        'SELECT kind FROM jobs WHERE done_at IS NULL AND subject_id = $1',
        [paymentId],
      );
      expect(jobs.rows).toEqual([{ kind: 'crypto.send' }]);
    });

    // Restart with the workers: the send is broadcast and completes.
    const second = server.start(['serve']);
    expect(await server.healthy(), second.output()).toBe(true);
    const completed = await server.waitFor(
      async () => (await api('GET', `/v1/sandbox/payments/${paymentId}`)).body.data.status === 'completed',
      20_000,
    );
    expect(completed, second.output()).toBe(true);
    const done = (await api('GET', `/v1/sandbox/payments/${paymentId}`)).body.data;
    expect(isTxHash('polygon', done.tx_hash)).toBe(true);

    const retry = await api('POST', '/v1/sandbox/crypto/send', body, idem);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.body.data.id).toBe(paymentId);

    // A few more worker rounds (the deposit watcher among them) change nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const balances = await api('GET', '/v1/sandbox/balances?currency=USDT');
    const byKind = Object.fromEntries(
      (balances.body.data as { kind: string; balance_minor: string }[]).map((b) => [b.kind, b.balance_minor]),
    );
    expect(byKind).toMatchObject({ available: '74950000', locked: '0' });
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    await server.withServerDb(async (db) => {
      const transfers = await db.query<{ amount: string }>(
        'SELECT amount::text AS amount FROM sandbox_chain_transfers WHERE payment_id = $1',
        [paymentId],
      );
      expect(transfers.rows).toEqual([{ amount: '25000000' }]);
      const journals = await db.query<{ kinds: string[] }>(
        `SELECT array_agg(p.kind ORDER BY p.kind) AS kinds FROM ledger_journals j
           JOIN ledger_postings p ON p.journal_id = j.id
          WHERE j.reference_type = 'payment' AND j.reference_id = $1 GROUP BY j.id`,
        [paymentId],
      );
      expect(journals.rows).toHaveLength(2); // the hold at creation, the settlement
      expect(journals.rows.filter((row) => row.kinds.includes('crypto_custody'))).toEqual([
        { kinds: ['crypto_custody', 'fee_revenue', 'locked'] },
      ]);
      const sends = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM payments WHERE kind = 'crypto_send'",
      );
      expect(sends.rows[0]!.n).toBe(1);
      // The deposit, seen by the helper and then by the watcher, was credited once.
      const deposits = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM crypto_deposits');
      expect(deposits.rows[0]!.n).toBe(1);
    });
  }, 120_000);
});
