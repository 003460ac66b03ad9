import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import type { Database } from '../db/types.ts';
import type { WorkerLiveness } from './context.ts';
import type { AppError } from './errors.ts';
import { databaseMetrics, metricsRegistry } from './metrics.ts';
import { readiness } from './readiness.ts';

let defaultsCollected = false;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The operators' listener, apart from the API: GET /metrics (Prometheus text), /health and /ready.
 * Every `serve` and `worker` process starts one on METRICS_HOST:METRICS_PORT (127.0.0.1 by default),
 * so metrics are never reachable where the API is and each process is scraped on its own.
 */
export async function startMetricsServer(options: {
  db: Database;
  workers?: WorkerLiveness;
  host: string;
  port: number;
  /** With several API processes: their metrics, added to this process's own. */
  apiProcessMetrics?: () => Promise<MetricObjectWithValues<MetricValue<string>>[][]>;
}): Promise<MetricsServer> {
  if (!defaultsCollected) {
    // Process metrics (CPU, memory, event-loop lag, GC) once per process.
    collectDefaultMetrics({ register: metricsRegistry, prefix: 'lastro_' });
    defaultsCollected = true;
  }
  const own = Registry.merge([metricsRegistry, databaseMetrics(options.db)]);
  const fromProcesses = options.apiProcessMetrics;
  // Counters and histograms of all processes are summed per label set, as one service's.
  const registry = fromProcesses
    ? {
        contentType: own.contentType,
        metrics: async () =>
          AggregatorRegistry.aggregate([await own.getMetricsAsJSON(), ...(await fromProcesses())]).metrics(),
      }
    : own;
  const server = createServer((request, response) => {
    const send = (status: number, type: string, body: string) =>
      response
        .writeHead(status, {
          'content-type': type,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        })
        .end(body);
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET')
      return json(404, { error: 'not_found', message: 'Only GET is served here.' });
    if (path === '/health') return json(200, { data: { status: 'ok' } });
    if (path === '/ready')
      return void readiness(options.db, options.workers).then(
        (state) => json(state.status === 'ready' ? 200 : 503, { data: state }),
        (error: unknown) =>
          json(503, { error: 'database_unavailable', message: (error as AppError).message ?? String(error) }),
      );
    if (path === '/metrics')
      return void registry.metrics().then(
        (text) => send(200, registry.contentType, text),
        () => json(503, { error: 'database_unavailable', message: 'The metrics could not be collected.' }),
      );
    json(404, { error: 'not_found', message: `No route GET ${path}.` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
