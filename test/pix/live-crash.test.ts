/**
 * The PIX crash test with the live adapters: the server is killed (SIGKILL) right after a live
 * payout is acknowledged and before the PSP is called; restarted with its workers, it registers its
 * webhook, sends the payout to the fake PSP once (PUT /v3/gn/pix/{idEnvio}), and the PSP's callback
 * completes it once, balances right.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pspIdOf } from '../../src/providers/pix/psp-id.ts';
import { makeTestCerts } from '../support/fakes/certs.ts';
import { FAKE_PIX_KEY, startFakePsp } from '../support/fakes/pix-psp.ts';
import { serverHarness } from '../support/server-process.ts';
import { CPF, SETTLEMENT_KEY } from './support.ts';

const certs = makeTestCerts();
const psp = await startFakePsp(certs);
const pixEnv: Record<string, string> = {};
const server = serverHarness('livecrash', 5000, pixEnv);
Object.assign(pixEnv, psp.env(`${server.base}/v1/psp/pix/notifications`));
const { call, start, waitFor, withServerDb, healthy } = server;

afterAll(async () => {
  await server.cleanup();
  await psp.close();
  certs.remove();
});

describe('a live payout survives a SIGKILL between its acknowledgement and the PSP call', () => {
  it('is sent once after the restart and completed once by the PSP callback', async () => {
    await server.prepare();
    const first = start(['serve', '--no-workers']);
    expect(await healthy(120_000), first.output()).toBe(true);
    const { session, workspaceId, partyId, api } = await server.owner('Live Crash Ltda', 'live');
    expect((await call('PUT', '/v1/live/settlement-key', session, workspaceId, SETTLEMENT_KEY)).status).toBe(
      200,
    );

    // Funds arrive the live way: a charge at the PSP, paid, notified to this process.
    const charge = await api('POST', '/v1/live/pix/charges', { amount_minor: '10000' });
    expect(charge.status, charge.text).toBe(200);
    const paid = await psp.pay(charge.body.data.pix_txid, false);
    const notified = await psp.callback(
      { pix: [psp.cobs.get(charge.body.data.pix_txid)!.pix[0]] },
      `${server.base}/v1/psp/pix/notifications?hmac=${pixEnv.PIX_WEBHOOK_SECRET}&ignorar=/pix`,
    );
    expect(notified).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    expect((await api('GET', `/v1/live/payments/${charge.body.data.id}`)).body.data.pix_tx_id).toBe(
      paid.endToEndId,
    );

    // KYC is decided by an operator; here straight in the database while no server holds it.
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    await withServerDb((db) =>
      db.query("UPDATE parties SET kyc_status = 'approved' WHERE id = $1", [partyId]),
    );

    const second = start(['serve', '--no-workers']);
    expect(await healthy(120_000), second.output()).toBe(true);
    const body = { amount_minor: '2500', pix_key: CPF };
    const idem = { 'idempotency-key': 'live-crash-payout' };
    const payout = await api('POST', '/v1/live/pix/payouts', body, idem);
    second.child.kill('SIGKILL');
    expect(payout.status, payout.text).toBe(200);
    const paymentId: string = payout.body.data.id;
    expect((await second.exited).signal).toBe('SIGKILL');
    expect(psp.payouts.size).toBe(0);
    await withServerDb(async (db) => {
      const jobs = await db.query<{ kind: string }>(
        "SELECT kind FROM jobs WHERE done_at IS NULL AND payload->>'paymentId' = $1",
        [paymentId],
      );
      expect(jobs.rows).toEqual([{ kind: 'pix.send' }]);
    });

    // Restarted with workers: webhook registered, payout sent once, completed by the callback.
    const third = start(['serve']);
    expect(await healthy(120_000), third.output()).toBe(true);
    expect(await waitFor(async () => psp.webhooks.has(FAKE_PIX_KEY), 20_000), third.output()).toBe(true);
    expect(await waitFor(async () => psp.payouts.has(pspIdOf(paymentId)), 20_000), third.output()).toBe(true);
    expect(
      await waitFor(
        async () => (await api('GET', `/v1/live/payments/${paymentId}`)).body.data.status === 'processing',
        20_000,
      ),
    ).toBe(true);
    const outcome = await psp.settlePayout(pspIdOf(paymentId), 'REALIZADO');
    expect(outcome).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    const done = (await api('GET', `/v1/live/payments/${paymentId}`)).body.data;
    expect(done).toMatchObject({
      status: 'completed',
      pix_tx_id: psp.payouts.get(pspIdOf(paymentId))!.e2eId,
    });
    const balances = await api('GET', '/v1/live/balances?currency=BRL');
    const byKind = Object.fromEntries(
      (balances.body.data as { kind: string; balance_minor: string }[]).map((b) => [b.kind, b.balance_minor]),
    );
    expect(byKind).toMatchObject({ available: '7400', locked: '0' });
    const retry = await api('POST', '/v1/live/pix/payouts', body, idem);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.body.data.id).toBe(paymentId);

    await new Promise((resolve) => setTimeout(resolve, 600));
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
    expect(psp.calls.filter((c) => c.method === 'PUT' && c.path.startsWith('/v3/gn/pix/'))).toHaveLength(1);
    await withServerDb(async (db) => {
      const journals = await db.query<{ kinds: string[] }>(
        `SELECT array_agg(p.kind ORDER BY p.kind) AS kinds FROM ledger_journals j
           JOIN ledger_postings p ON p.journal_id = j.id
          WHERE j.reference_type = 'payment' AND j.reference_id = $1 GROUP BY j.id`,
        [paymentId],
      );
      expect(journals.rows.filter((row) => row.kinds.includes('pix_settlement'))).toHaveLength(1);
      expect(journals.rows).toHaveLength(2);
    });
  }, 480_000);
});
