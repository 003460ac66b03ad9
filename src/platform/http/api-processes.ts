/**
 * Several API processes on one port (`lastro serve --processes N`): one Node event loop uses one
 * core, so a bigger box needs more processes to use its cores. The primary process migrates, runs
 * the background workers and the metrics listener as a single process does; it forks N API
 * processes (node:cluster) that share the listening socket and serve requests only. Nothing in
 * process memory needs sharing: idempotency, locks and group commit's lanes live in the database or
 * per process. Each API process opens its own pool of connections (docs/scaling.md says how to size).
 */
import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

/** Set in the environment of a forked API process. */
export const API_PROCESS_ENV = 'LASTRO_API_PROCESS';

/** Whether this process is an API process the primary forked. */
export const isApiProcess = (): boolean => cluster.isWorker && process.env[API_PROCESS_ENV] === '1';

type Metrics = MetricObjectWithValues<MetricValue<string>>[];
type Message =
  | { type: 'lastro:listening' }
  | { type: 'lastro:metrics-request'; id: number }
  | { type: 'lastro:metrics'; id: number; metrics: Metrics };

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' &&
  value !== null &&
  String((value as { type?: unknown }).type).startsWith('lastro:');

/** A crash loop (an API process that keeps dying) stops the service instead of forking forever. */
const RESTARTS_ALLOWED = 5;
const RESTART_WINDOW_MS = 60_000;
const RESTART_DELAY_MS = 1_000;
const STOP_GRACE_MS = 10_000;
const METRICS_TIMEOUT_MS = 2_000;

export interface ApiProcesses {
  /** Resolves when every API process listens; rejects when one exits before it does. */
  ready: Promise<void>;
  /** The API processes' metrics, one set per process that answered in time. */
  metrics(): Promise<Metrics[]>;
  /** SIGTERM to each (they finish their requests), SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** Whether they were stopped because they kept exiting (the service then exits non-zero). */
  readonly crashLooped: boolean;
}

/** Forks `count` API processes and keeps that many running. */
export function forkApiProcesses(
  count: number,
  log: FastifyBaseLogger,
  onCrashLoop: () => void,
): ApiProcesses {
  let stopping = false;
  let crashLooped = false;
  const restarts: number[] = [];
  let listening = 0;
  let settleReady: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  ready.catch(() => {}); // its caller awaits it later; a failure before then is not unhandled

  const fork = () => {
    // Each process sizes what it shares by how many there are (its group-commit lanes).
    const worker = cluster.fork({ [API_PROCESS_ENV]: '1', API_PROCESSES: String(count) });
    let up = false;
    worker.on('message', (message: unknown) => {
      if (!isMessage(message) || message.type !== 'lastro:listening' || up) return;
      up = true;
      if (++listening === count) settleReady?.resolve();
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (!up && listening < count) {
        settleReady?.reject(new Error(`an API process exited (${signal ?? code}) before it listened`));
        return;
      }
      if (up) listening--;
      log.error({ pid: worker.process.pid, code, signal }, 'an API process exited; starting another');
      const now = Date.now();
      restarts.push(now);
      while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > RESTARTS_ALLOWED) {
        log.fatal({ restarts: restarts.length }, 'API processes keep exiting; stopping');
        crashLooped = true;
        onCrashLoop();
        return;
      }
      setTimeout(() => stopping || fork(), RESTART_DELAY_MS).unref();
    });
  };
  for (let i = 0; i < count; i++) fork();

  return {
    ready,
    get crashLooped() {
      return crashLooped;
    },
    metrics: () => collectMetrics(Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w)),
    async stop() {
      stopping = true;
      await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => worker && stopOne(worker)));
    },
  };
}

function stopOne(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.process.kill('SIGTERM');
  });
}

let nextRequest = 0;

/** Asks each API process for its registry's metrics over IPC; a process that does not answer is left out. */
function collectMetrics(workers: Worker[]): Promise<Metrics[]> {
  const asks = workers.map(
    (worker) =>
      new Promise<Metrics | undefined>((resolve) => {
        const id = ++nextRequest;
        const onMessage = (message: unknown) => {
          if (!isMessage(message) || message.type !== 'lastro:metrics' || message.id !== id) return;
          done(message.metrics);
        };
        const done = (metrics: Metrics | undefined) => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve(metrics);
        };
        const timer = setTimeout(() => done(undefined), METRICS_TIMEOUT_MS);
        worker.on('message', onMessage);
        worker.send(
          { type: 'lastro:metrics-request', id } satisfies Message,
          (error) => error && done(undefined),
        );
      }),
  );
  return Promise.all(asks).then((all) => all.filter((m): m is Metrics => m !== undefined));
}

/** In an API process: tells the primary it listens, and answers its metrics requests from `registry`. */
export function reportToPrimary(registry: Registry): void {
  process.on('message', (message: unknown) => {
    if (!isMessage(message) || message.type !== 'lastro:metrics-request') return;
    void registry.getMetricsAsJSON().then((metrics) => {
      process.send?.({ type: 'lastro:metrics', id: message.id, metrics } satisfies Message);
    });
  });
  process.send?.({ type: 'lastro:listening' } satisfies Message);
}
