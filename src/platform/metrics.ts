/**
 * The service's Prometheus metrics. Counters and histograms live in one process-wide registry and are
 * moved at a few choke points (the HTTP hook, the payment transition, the journal writer, the webhook
 * recorder, the provider proxy); what the database knows (queues, pool) is read at scrape time.
 * Labels are bounded sets: route templates, kinds, statuses, rails and method names, never ids.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/types.ts';

export const metricsRegistry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'lastro_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status code',
  labelNames: ['method', 'route', 'status'],
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const paymentTransitions = new Counter({
  name: 'lastro_payment_transitions_total',
  help: 'Statuses payments entered (their first one included), by kind and status',
  labelNames: ['kind', 'status', 'environment'],
  registers: [metricsRegistry],
});

export const ledgerPostings = new Counter({
  name: 'lastro_ledger_postings_total',
  help: 'Ledger postings written, by environment',
  labelNames: ['environment'],
  registers: [metricsRegistry],
});

export const webhookAttempts = new Counter({
  name: 'lastro_webhook_attempts_total',
  help: 'Webhook delivery attempts recorded, by result (delivered, retry, failed)',
  labelNames: ['result'],
  registers: [metricsRegistry],
});

export const webhookDeliveryLag = new Histogram({
  name: 'lastro_webhook_delivery_lag_seconds',
  help: 'From the event to its successful delivery',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
  registers: [metricsRegistry],
});

export const providerCallDuration = new Histogram({
  name: 'lastro_provider_call_duration_seconds',
  help: 'Calls to rail providers by rail, operation and outcome (ok or error)',
  labelNames: ['rail', 'operation', 'environment', 'outcome'],
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const providerErrors = new Counter({
  name: 'lastro_provider_errors_total',
  help: 'Provider calls that threw, by rail and operation',
  labelNames: ['rail', 'operation', 'environment'],
  registers: [metricsRegistry],
});

interface QueueRow {
  kind: string;
  due: string;
  oldest_seconds: number | null;
}

/** A gauge whose values are read afresh at every scrape, then only what `collect` sets is shown. */
function scrapedGauge(
  registry: Registry,
  options: { name: string; help: string; labelNames: string[] },
  collect: (g: Gauge) => Promise<void>,
): Gauge {
  return new Gauge({
    ...options,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });
}

/**
 * The gauges read from one database at scrape time (never moved per job): queue depth and age by
 * kind, parked jobs, pending webhook deliveries, the connection pool. One registry per database.
 */
export function databaseMetrics(db: Database): Registry {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void>) =>
    scrapedGauge(registry, { name, help, labelNames }, collect);
  const dueJobs = async () =>
    (
      await db.query<QueueRow>(
        `SELECT kind, count(*)::text AS due,
                extract(epoch FROM now() - min(run_at))::float8 AS oldest_seconds
           FROM jobs WHERE done_at IS NULL AND run_at <= now() GROUP BY kind`,
      )
    ).rows;
  gauge('lastro_jobs_due', 'Jobs due and not done, by kind', ['kind'], async (g) => {
    for (const row of await dueJobs()) g.set({ kind: row.kind }, Number(row.due));
  });
  gauge('lastro_jobs_oldest_due_seconds', 'Age of the oldest due job, by kind', ['kind'], async (g) => {
    for (const row of await dueJobs()) g.set({ kind: row.kind }, Math.max(0, row.oldest_seconds ?? 0));
  });
  gauge('lastro_jobs_parked', 'Jobs parked after their last attempt failed, by kind', ['kind'], async (g) => {
    const { rows } = await db.query<{ kind: string; parked: string }>(
      'SELECT kind, count(*)::text AS parked FROM jobs WHERE failed_at IS NOT NULL GROUP BY kind',
    );
    for (const row of rows) g.set({ kind: row.kind }, Number(row.parked));
  });
  gauge(
    'lastro_webhook_deliveries_due',
    'Webhook deliveries pending and due, and the oldest one’s age in seconds',
    ['measure'],
    async (g) => {
      const { rows } = await db.query<{ due: string; oldest: number | null }>(
        `SELECT count(*)::text AS due, extract(epoch FROM now() - min(next_attempt_at))::float8 AS oldest
           FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
      );
      g.set({ measure: 'count' }, Number(rows[0]?.due ?? 0));
      g.set({ measure: 'oldest_seconds' }, Math.max(0, rows[0]?.oldest ?? 0));
    },
  );
  gauge(
    'lastro_set_aside_open',
    'Items set aside by a background round and not yet retried successfully or cleared, by source',
    ['source'],
    async (g) => {
      const { rows } = await db.query<{ source: string; open: string }>(
        'SELECT source, count(*)::text AS open FROM set_aside_items WHERE resolved_at IS NULL GROUP BY source',
      );
      for (const row of rows) g.set({ source: row.source }, Number(row.open));
    },
  );
  gauge(
    'lastro_db_pool_connections',
    'PostgreSQL pool connections: total, idle, and callers waiting for one',
    ['state'],
    async (g) => {
      const pool = db.pool?.();
      if (!pool) return;
      g.set({ state: 'total' }, pool.total);
      g.set({ state: 'idle' }, pool.idle);
      g.set({ state: 'waiting' }, pool.waiting);
    },
  );
  return registry;
}
