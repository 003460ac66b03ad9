/**
 * On a Citus cluster every request path is a single-shard path (docs/scaling.md): each write a
 * request makes, and each read of one record, routes to one workspace's shard. The API here talks to
 * the coordinator over connections on which Citus refuses any query that needs more than one shard
 * (`citus.multi_task_query_log_level = error`), so a request that goes multi-shard answers 500 and
 * fails the test. The jobs a request leaves (settlements) run on those connections too. Background
 * sweeps, which read across workspaces on purpose, are not run here. Runs only when TEST_DATABASE_URL
 * names a Citus coordinator with workers (scripts/citus-cluster.sh; CI's Citus stage).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { startTestAppOn, type TestContext } from '../support/app.ts';
import { createCitusDatabase, dropCitusDatabase } from '../support/citus.ts';
import { onCitus } from '../support/database.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';
import { CPF, drainJobs, openWorkspace, type Workspace } from '../support/world.ts';

const STRICT = `-c citus.multi_task_query_log_level=${process.env.CITUS_SHARD_CHECK ?? 'error'}`;

describe.runIf(onCitus())('every request path is single-shard on Citus', () => {
  const serverUrl = testServerUrl()!;
  const workers = inject('citusWorkers');
  const name = `lastro_c_${inject('runId')}_${process.pid}_shard`;
  let admin: Database;
  let ctx: TestContext;
  let ana: Workspace;
  let bia: Workspace;

  beforeAll(async () => {
    await createCitusDatabase(serverUrl, workers, name);
    admin = openPostgres(withDatabase(serverUrl, name), 4);
    await migrate(admin);
    const strictUrl = new URL(withDatabase(serverUrl, name));
    strictUrl.searchParams.set('options', STRICT);
    ctx = await startTestAppOn(openPostgres(strictUrl.toString(), 20));
    ana = await openWorkspace(ctx, 'Ana Pagamentos', { settlementKey: true });
    bia = await openWorkspace(ctx, 'Bia Comércio', { settlementKey: true });
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await admin?.close();
    await dropCitusDatabase(serverUrl, workers, name);
  });

  it('the connections refuse a multi-shard query', async () => {
    await expect(ctx.db.query('SELECT count(*) FROM payments')).rejects.toThrow(/multi|shard|task/i);
  });

  it('cash-in, payout, refund and their settlement jobs', async () => {
    for (const ws of [ana, bia]) {
      const cashIn = await ws.fund('50000');
      await drainJobs(ctx);
      const payout = await ws.payout('1200', { pix_key: CPF });
      await drainJobs(ctx);
      const refund = await ws.api.post(`/v1/sandbox/payments/${cashIn.id}/refund`, { amount_minor: '700' });
      expect(refund.statusCode, refund.body).toBe(200);
      await drainJobs(ctx);
      for (const id of [cashIn.id, payout.id, refund.json().data.id]) {
        const res = await ws.api.get(`/v1/sandbox/payments/${id}`);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect(Number((await ws.balances()).available)).toBeGreaterThan(0);
    }
  });

  it('charges, payment links and the hosted checkout', async () => {
    const charge = await ana.api.post('/v1/sandbox/pix/charges', { amount_minor: '2500' });
    expect(charge.statusCode, charge.body).toBe(200);
    const link = await ana.api.post('/v1/sandbox/payment-links', { amount_minor: '5000', title: 'Camiseta' });
    expect(link.statusCode, link.body).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: `/pay/${link.json().data.slug}` });
    expect(page.statusCode).toBe(200);
    const paid = await ctx.app.inject({
      method: 'POST',
      url: `/pay/${link.json().data.slug}/checkout`,
      payload: { payer: { name: 'João da Silva', document: CPF } },
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('quotes and conversions, customers, KYC, wallets and sub-accounts', async () => {
    const quote = await ana.api.post('/v1/sandbox/rfq/quote', {
      base_amount_minor: '10000',
      base_currency: 'BRL',
      quote_currency: 'USDT',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const executed = await ana.api.post('/v1/sandbox/rfq/execute', { quote_id: quote.json().data.id });
    expect(executed.statusCode, executed.body).toBe(200);
    const customer = await ana.api.post('/v1/sandbox/customers', { display_name: 'Carla Souza' });
    expect(customer.statusCode, customer.body).toBe(200);
    const wallet = await ana.api.post('/v1/sandbox/wallets', { network: 'polygon' });
    expect(wallet.statusCode, wallet.body).toBe(200);
    const deposit = await ana.api.post('/v1/sandbox/simulate/crypto/deposit', {
      wallet_id: wallet.json().data.id,
      currency: 'USDT',
      amount_minor: '1000000',
    });
    expect(deposit.statusCode, deposit.body).toBe(200);
    const sub = await ana.api.post('/v1/sandbox/subaccounts', { display_name: 'Loja da Ana' });
    expect(sub.statusCode, sub.body).toBe(200);
  });

  it('every list and read of one workspace', async () => {
    const endpoint = await ana.api.post('/v1/sandbox/webhooks/endpoints', {
      url: 'https://example.com/hooks',
    });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    for (const url of [
      '/v1/sandbox/payments',
      '/v1/sandbox/events',
      '/v1/sandbox/audit-events',
      '/v1/sandbox/balances',
      `/v1/sandbox/statement?party_id=${ana.owner.defaultPartyId}`,
      '/v1/sandbox/customers',
      '/v1/sandbox/wallets',
      '/v1/sandbox/payment-links',
      '/v1/sandbox/webhooks/endpoints',
      '/v1/sandbox/webhooks/deliveries',
      '/v1/sandbox/subaccounts',
    ]) {
      const res = await ana.api.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const keys = await ana.session.get('/v1/sandbox/api-keys');
    expect(keys.statusCode, keys.body).toBe(200);
  });

  it('the books verify, and both workers hold rows', async () => {
    const report = await verifyBooks(admin);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    // Workspaces hash to shards: a few more, each with a payment, until both workers hold payments.
    const nodesWithPayments = async () => {
      const { rows: owners } = await admin.query<{ id: string }>(
        'SELECT DISTINCT workspace_id AS id FROM payments',
      );
      const { rows } = await admin.query<{ port: number }>(
        `SELECT DISTINCT nodeport AS port FROM citus_shards
          WHERE table_name = 'payments'::regclass
            AND shardid IN (SELECT get_shard_id_for_distribution_column('payments', w) FROM unnest($1::uuid[]) w)`,
        [owners.map((owner) => owner.id)],
      );
      return rows.length;
    };
    for (let i = 0; i < 16 && (await nodesWithPayments()) < workers.length; i++) {
      const ws = await openWorkspace(ctx, `Loja ${i}`);
      await ws.fund('100');
    }
    expect(await nodesWithPayments()).toBe(workers.length);
  });
});
