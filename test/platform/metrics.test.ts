import { afterAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { startMetricsServer } from '../../src/platform/metrics-server.ts';
import { runJobs } from '../../src/worker.ts';
import { onRealPostgres } from '../support/database.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ webhookAllowPrivate: true, sandboxSettleMs: 0 });
const receiver = await WebhookReceiver.start();
const dispatcher = new WebhookDispatcher({ random: () => 0.5 });
const server = await startMetricsServer({ db: world.db, host: '127.0.0.1', port: 0 });
afterAll(async () => {
  await server.close();
  await dispatcher.close();
  await receiver.close();
  await world.close();
});

/** One scrape of /metrics over HTTP, as series text → value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const series = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

const value = (series: Map<string, number>, name: string) => series.get(name) ?? 0;
/** The sum over every series of a metric whose labels include all of `labels`. */
const total = (series: Map<string, number>, metric: string, ...labels: string[]) =>
  [...series]
    .filter(([name]) => name.startsWith(`${metric}{`) && labels.every((label) => name.includes(label)))
    .reduce((sum, [, v]) => sum + v, 0);

describe('/metrics', () => {
  it('moves after a payout and a webhook delivery, with no id in any label', async () => {
    const ws = await world.workspace({ settlementKey: true, fund: '10000' });
    const endpoint = await ws.api.post('/v1/sandbox/webhooks/endpoints', {
      url: receiver.url('/hooks'),
      event_types: ['payment.completed'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    receiver.setSecrets('/hooks', endpoint.json().data.secret);
    const before = await scrape();

    const payout = await ws.payout('2500');
    const queued = await scrape();
    expect(total(queued, 'lastro_jobs_due')).toBeGreaterThanOrEqual(1);
    await runJobs(world.deps);
    await runJobs(world.deps);
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('completed');
    await dispatcher.run(world.deps);
    await dispatcher.idle();
    expect((await receiver.waitFor(1, '/hooks')).length).toBeGreaterThanOrEqual(1);
    const after = await scrape();

    const moved = (metric: string, ...labels: string[]) =>
      total(after, metric, ...labels) - total(before, metric, ...labels);
    expect(
      moved('lastro_http_request_duration_seconds_count', 'route="/v1/:env/pix/payouts"', 'status="200"'),
    ).toBe(1);
    expect(
      moved(
        'lastro_payment_transitions_total',
        'kind="pix_cash_out"',
        'status="created"',
        'environment="sandbox"',
      ),
    ).toBe(1);
    expect(moved('lastro_payment_transitions_total', 'kind="pix_cash_out"', 'status="completed"')).toBe(1);
    expect(moved('lastro_ledger_postings_total', 'environment="sandbox"')).toBeGreaterThanOrEqual(2);
    expect(
      moved('lastro_provider_call_duration_seconds_count', 'rail="pix"', 'outcome="ok"'),
    ).toBeGreaterThan(0);
    expect(moved('lastro_webhook_attempts_total', 'result="delivered"')).toBeGreaterThanOrEqual(1);
    expect(
      value(after, 'lastro_webhook_delivery_lag_seconds_count') -
        value(before, 'lastro_webhook_delivery_lag_seconds_count'),
    ).toBeGreaterThanOrEqual(1);
    expect(total(after, 'lastro_jobs_due')).toBe(0);

    const labels = [...after.keys()].join('\n');
    expect(labels).not.toContain(payout.id);
    expect(labels).not.toContain(ws.owner.workspaceId);
    if (onRealPostgres())
      expect(total(after, 'lastro_db_pool_connections', 'state="total"')).toBeGreaterThan(0);
  });

  it('counts a provider call that throws as an error of its rail and operation', async () => {
    const before = await scrape();
    const keys = world.deps.providers.get('kms', 'sandbox');
    await expect(keys.sign('no-such-key', new Uint8Array(32))).rejects.toThrow();
    const after = await scrape();
    const labels = ['rail="kms"', 'operation="sign"', 'environment="sandbox"'];
    expect(total(after, 'lastro_provider_errors_total', ...labels)).toBe(
      total(before, 'lastro_provider_errors_total', ...labels) + 1,
    );
  });

  it('shows a parked job by kind, read from the queue at scrape time', async () => {
    const before = total(await scrape(), 'lastro_jobs_parked');
    await world.db.query(
      `UPDATE jobs SET failed_at = now(), done_at = now(), last_error = 'test: parked'
        WHERE id = (SELECT id FROM jobs ORDER BY run_at LIMIT 1)`,
    );
    expect(total(await scrape(), 'lastro_jobs_parked')).toBe(before + 1);
  });

  it('answers /health and /ready beside the metrics, and nothing else', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ data: { status: 'ok' } });
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { data: { checks: unknown } }).data.checks).toEqual({
      database: 'ok',
      migrations: 'ok',
      workers: 'not_running',
    });
    expect((await fetch(`${base}/v1/sandbox/payments`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
