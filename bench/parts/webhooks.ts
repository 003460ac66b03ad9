import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { createDeps } from '../../src/deps.ts';
import { WebhookDispatcher, webhookDispatchTask } from '../../src/modules/webhooks/dispatcher.ts';
import { newWebhookSecret } from '../../src/modules/webhooks/service.ts';
import type { Deps } from '../../src/platform/context.ts';
import { newId } from '../../src/platform/ids.ts';
import { emitEvent } from '../../src/platform/outbox.ts';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { scratchDatabase } from '../scratch.ts';
import { type BenchPart, type BenchRow, percentile } from '../table.ts';

const TENANTS = 16;

/** A local receiver that answers 200 at once, notes when each webhook-id arrived, and verifies a sample of signatures. */
async function startReceiver(secrets: Map<string, string>) {
  const arrivals = new Map<string, number>();
  let badSignatures = 0;
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      arrivals.set(id, performance.now());
      if (count++ % 50 === 0) {
        try {
          new Webhook(secrets.get(req.url ?? '')!).verify(
            Buffer.concat(chunks).toString(),
            req.headers as never,
          );
        } catch {
          badSignatures++;
        }
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    arrivals,
    badSignatures: () => badSignatures,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** TENANTS workspaces with one endpoint each on the receiver. */
async function seed(
  db: Database,
  deps: Deps,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  secrets: Map<string, string>,
) {
  const workspaces: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const workspaceId = newId();
    const secret = newWebhookSecret();
    secrets.set(`/t${i}`, secret);
    await db.query(`INSERT INTO workspaces (id, display_name) VALUES ($1, $2)`, [workspaceId, `bench ${i}`]);
    await db.query(
      `INSERT INTO webhook_endpoints (workspace_id, id, environment, url, secret_enc, created_at, updated_at)
       VALUES ($1, $2, 'sandbox', $3, $4, now(), now())`,
      [workspaceId, newId(), receiver.url(`/t${i}`), deps.sealer.seal(secret)],
    );
    workspaces.push(workspaceId);
  }
  return workspaces;
}

async function emitBatch(db: Database, workspaces: string[], count: number, offset: number) {
  const ids: string[] = [];
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const event = await emitEvent(tx, {
        workspaceId: workspaces[(offset + i) % workspaces.length]!,
        environment: 'sandbox',
        type: 'payment.completed',
        object: { id: newId(), amount_minor: '1050', currency: 'BRL', status: 'completed' },
      });
      ids.push(event.id);
    }
  });
  return ids;
}

async function measure(db: Database, label: 'postgres' | 'pglite', quick: boolean): Promise<BenchRow[]> {
  await migrate(db);
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), webhookAllowPrivate: true };
  const deps = createDeps(config, db, { masterKey: randomBytes(32).toString('hex') });
  const secrets = new Map<string, string>();
  const receiver = await startReceiver(secrets);
  const workspaces = await seed(db, deps, receiver, secrets);
  const rows: BenchRow[] = [];

  // 1. Drain a backlog: how many deliveries per second one dispatcher sends.
  const backlog = quick ? 2000 : 10_000;
  for (let done = 0; done < backlog; done += 500) await emitBatch(db, workspaces, 500, done);
  const dispatcher = new WebhookDispatcher();
  const started = performance.now();
  while (receiver.arrivals.size < backlog) {
    if ((await dispatcher.run(deps)) === 0) await new Promise((r) => setTimeout(r, 5));
  }
  await dispatcher.idle();
  const seconds = (performance.now() - started) / 1000;
  rows.push({
    part: 'webhooks',
    scenario: `drain ${backlog} pending deliveries, ${TENANTS} endpoints`,
    database: label,
    concurrency: TENANTS * 8,
    opsPerSec: backlog / seconds,
    note: `deliveries/s to a local receiver; bad signatures ${receiver.badSignatures()}`,
  });

  // 2. Steady load with the worker's own task: lag from event commit to arrival at the receiver.
  receiver.arrivals.clear();
  const rate = quick ? 200 : 400;
  const duration = quick ? 3 : 8;
  const committedAt = new Map<string, number>();
  const runner = new TaskRunner(
    deps,
    [{ ...webhookDispatchTask, run: (d) => dispatcher.run(d) }],
    pino({ level: 'silent' }),
  );
  runner.start();
  const perTick = rate / 50;
  const loadStart = performance.now();
  for (let tick = 0; tick < duration * 50; tick++) {
    const ids = await emitBatch(db, workspaces, perTick, tick * perTick);
    const now = performance.now();
    for (const id of ids) committedAt.set(id, now);
    const wait = loadStart + (tick + 1) * 20 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const deadline = performance.now() + 30_000;
  while (receiver.arrivals.size < committedAt.size && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  await runner.stop();
  await dispatcher.close();
  const lags = [...committedAt].map(
    ([id, at]) => (receiver.arrivals.get(id) ?? Number.POSITIVE_INFINITY) - at,
  );
  lags.sort((a, b) => a - b);
  rows.push({
    part: 'webhooks',
    scenario: `commit→delivery lag at ${rate} events/s (worker polls every ${webhookDispatchTask.intervalMs} ms)`,
    database: label,
    concurrency: TENANTS,
    opsPerSec: receiver.arrivals.size / ((performance.now() - loadStart) / 1000),
    p50Ms: percentile(lags, 50),
    p99Ms: percentile(lags, 99),
    note: `${receiver.arrivals.size}/${committedAt.size} delivered`,
  });
  await receiver.close();
  return rows;
}

export const webhooksPart: BenchPart = {
  name: 'webhooks',
  async run({ databaseUrl, quick }) {
    const rows: BenchRow[] = [];
    if (databaseUrl) {
      const scratch = await scratchDatabase(databaseUrl, 'lastro_bench_webhooks');
      const db = openPostgres(scratch.url, 40);
      try {
        rows.push(...(await measure(db, 'postgres', quick)));
      } finally {
        await db.close();
        await scratch.drop();
      }
    }
    const lite = await openPglite();
    try {
      rows.push(...(await measure(lite, 'pglite', true)));
    } finally {
      await lite.close();
    }
    return rows;
  },
};
