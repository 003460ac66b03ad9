/**
 * `npm run soak [-- --ops N --minutes M --kills K --tenants T --clients C --endpoints E --socket] [--fuzz --requests R]
 *   [--citus COORDINATOR_URL [--grow PORT]]`
 *
 * A bank test on a private PostgreSQL cluster: tenants doing every money-moving operation over HTTP
 * from concurrent clients with idempotent retries and duplicates, while the API and the worker are
 * SIGKILLed and restarted and PostgreSQL itself restarts. Then: `lastro verify` clean, every
 * acknowledged payment present once and final, every event delivered to every live endpoint with a
 * valid signature. With --fuzz it drives the schema-driven fuzzer against the same kind of server.
 * With --citus it runs on a Citus cluster already up (scripts/citus-cluster.sh), in a database of its
 * own, restarting the coordinator; --grow adds the worker on PORT mid-run and rebalances the shards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { progressTo } from '../../src/platform/progress.ts';
import { type GrowReport, openCitusCluster, type SoakCitus } from './citus.ts';
import { latencyReport, stats, violation } from './client.ts';
import { type RunClock, runClock } from './clock.ts';
import { finalChecks } from './final-checks.ts';
import { runFuzz } from './fuzz.ts';
import { freePort } from './net.ts';
import { OPERATIONS, type OpContext, runOperation } from './operations.ts';
import { probeWhileDown, waitReady } from './outage.ts';
import { startPrivateCluster } from './postgres.ts';
import { service } from './processes.ts';
import { RECEIVER_MODES, startReceivers } from './receivers.ts';
import { createTenant, type Tenant } from './world.ts';

function options(argv: string[]) {
  const text = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const value = (name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => {
    const at = argv.indexOf(`--${name}`);
    const number = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!Number.isInteger(number) || number < min || number > max)
      throw new Error(`--${name} takes a whole number from ${min} to ${max}`);
    return number;
  };
  return {
    ops: value('ops', 2000),
    minutes: value('minutes', 5),
    kills: value('kills', 4),
    tenants: value('tenants', 3),
    clients: value('clients', 12),
    endpoints: value('endpoints', RECEIVER_MODES.length, 1, RECEIVER_MODES.length),
    seed: value('seed', Date.now() % 1_000_000),
    fuzz: argv.includes('--fuzz'),
    socket: argv.includes('--socket'),
    requests: value('requests', 100_000),
    citus: text('citus'),
    grow: argv.includes('--grow') ? value('grow', 0, 1024, 65535) : undefined,
  };
}

/** Mulberry32: a seeded generator, so a failing run can be replayed with --seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A plain progress line at each tenth of the run (operations or time, whichever is further), on
 * stderr, until `finished` says the clients are done.
 */
async function reportTenths(clock: RunClock, ops: number, finished: { now: boolean }): Promise<void> {
  const task = progressTo(process.stderr).task('soak', 10);
  const started = Date.now();
  const minutesSince = () => ((Date.now() - started) / 60_000).toFixed(1);
  let tenth = 1;
  while (!finished.now) {
    if (tenth <= 10 && clock.share() >= tenth / 10) {
      task.step(`${clock.issued}/${ops} operations, ${minutesSince()} min`);
      tenth++;
    } else await sleep(250);
  }
  task.done(`${clock.issued} operations issued in ${minutesSince()} min`);
}

async function main() {
  const opts = options(process.argv.slice(2));
  const random = seeded(opts.seed);
  const started = Date.now();
  console.log(`soak: seed ${opts.seed}, ${JSON.stringify(opts)}`);
  if (opts.grow !== undefined && !opts.citus) throw new Error('--grow needs --citus');
  const { cluster, databaseUrl } = await soakDatabase(opts);
  const port = await freePort();
  const app = service(
    {
      DATABASE_URL: databaseUrl,
      MASTER_KEY: randomBytes(32).toString('hex'),
      SANDBOX_SETTLE_MS: '100',
      WEBHOOK_ALLOW_PRIVATE: '1',
      RATE_LIMIT_MAX: '1000000',
      CHECKOUT_RATE_LIMIT_MAX: '1000000',
      LOG_LEVEL: 'error',
      DATA_DIR: '/tmp',
    },
    port,
  );
  const receivers = await startReceivers(random);
  // Interrupted: the children and the private cluster go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void app.stopAll().finally(() => {
        cluster.stop();
        process.exit(130);
      });
    });
  const counts = { kills: 0, restarts: 0, operations: 0, grown: undefined as GrowReport | undefined };
  try {
    app.start('api');
    app.start('worker');
    if (!(await waitReady(app.base, 120_000))) throw new Error(`the API did not start:\n${app.tail()}`);
    if (opts.fuzz) {
      await runFuzz(app.base, opts.requests, opts.seed);
    } else {
      const tenants: Tenant[] = [];
      const setup = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      try {
        for (let i = 0; i < opts.tenants; i++)
          tenants.push(await createTenant(app.base, i, receivers, opts.endpoints, setup));
      } finally {
        await setup.end();
      }
      const covered = new Set(tenants.flatMap((t) => t.endpoints.map((e) => e.mode)));
      const missing = RECEIVER_MODES.filter((mode) => !covered.has(mode));
      if (missing.length)
        console.log(`soak: no endpoint is ${missing.join(', ')} (more --tenants or --endpoints)`);
      const clock = runClock(opts.ops, opts.minutes);
      const ctx: OpContext = {
        base: app.base,
        random,
        // An operation still retries for a minute after the run's end (which a grow pushes back).
        get untilMs() {
          return clock.deadlineMs() + 60_000;
        },
        acked: [],
        confirmed: [],
        dated: { dueCharges: [], subscriptions: [] },
      };
      const client = async () => {
        while (clock.share() < 1) {
          clock.issued++;
          await runOperation(
            ctx,
            tenants[Math.floor(random() * tenants.length)]!,
            OPERATIONS[Math.floor(random() * OPERATIONS.length)]!,
          );
        }
      };
      // Faults: K kills spread over the run (API or worker), PostgreSQL restarted at 40 % and 70 %.
      const chaos = async () => {
        const plan: { at: number; what: 'api' | 'worker' | 'fast' | 'immediate' | 'grow' }[] = [
          { at: 0.4, what: 'fast' as const },
          { at: 0.7, what: 'immediate' as const },
          ...(opts.grow === undefined ? [] : [{ at: 0.15, what: 'grow' as const }]),
          ...Array.from({ length: opts.kills }, () => ({
            at: 0.05 + random() * 0.9,
            what: random() < 0.5 ? ('api' as const) : ('worker' as const),
          })),
        ].sort((a, b) => a.at - b.at);
        for (const step of plan) {
          while (clock.share() < step.at) await sleep(50);
          if (clock.share() >= 1) return;
          if (step.what === 'api' || step.what === 'worker') {
            if (await app.kill(step.what)) counts.kills++;
            await sleep(random() * 1000);
            app.start(step.what);
          } else if (step.what === 'grow') {
            // The clients write all through the rebalance; its time is not the run's.
            counts.grown = await clock.paused(() => growWhileWriting(cluster as SoakCitus, opts.grow!));
          } else {
            await probeWhileDown(app.base, cluster, step.what);
            counts.restarts++;
          }
        }
      };
      const finished = { now: false };
      const reporting = reportTenths(clock, opts.ops, finished);
      await Promise.all([chaos(), ...Array.from({ length: opts.clients }, client)]);
      finished.now = true;
      await reporting;
      counts.operations = ctx.acked.length;
      // Whatever was killed is up again; the last restart must not be in the final checks' way.
      app.start('api');
      app.start('worker');
      if (!(await waitReady(app.base, 120_000))) violation('the API did not come back after the run');
      await finalChecks({
        app,
        databaseUrl,
        tenants: tenants.flatMap((t) => [t, ...(t.clocks ? [t.clocks.due, t.clocks.subscriptions] : [])]),
        receivers,
        acked: ctx.acked,
        confirmed: ctx.confirmed,
        dated: ctx.dated,
      });
    }
  } finally {
    await app.stopAll();
    await receivers.close();
    cluster.stop();
  }
  if (!opts.fuzz && counts.restarts === 0)
    violation('PostgreSQL was never restarted (run longer or with more --ops)');
  if (!opts.fuzz && opts.grow !== undefined && !counts.grown)
    violation('the cluster never grew (run longer or with more --ops)');
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`soak: latency per route (answered calls)\n${latencyReport()}`);
  console.log(
    `soak: ${opts.fuzz ? 'fuzz' : `operations ${counts.operations}`}, calls ${stats.calls}, retries ${stats.retries}, ` +
      `kills ${counts.kills} of ${opts.fuzz ? 0 : opts.kills}, restarts ${counts.restarts}, 503s ${stats.unavailable}, no answer ${stats.noAnswer}, ` +
      `webhooks received ${receivers.counts.requests}, violations ${stats.violations.length}, ${minutes} min`,
  );
  process.exitCode = stats.violations.length === 0 ? 0 : 1;
}

/** The soak's own database: on a private PostgreSQL, or on the Citus cluster named by --citus. */
async function soakDatabase(opts: ReturnType<typeof options>) {
  if (opts.citus) {
    const cluster = await openCitusCluster(opts.citus, `lastro_soak_${opts.seed}`);
    return { cluster, databaseUrl: cluster.url };
  }
  const cluster = await startPrivateCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE lastro_soak');
  await admin.end();
  // --socket: the service reaches PostgreSQL over its Unix socket (TCP on loopback otherwise).
  const databaseUrl = (opts.socket ? cluster.socketUrl : cluster.url).replace(
    /\/postgres(\?|$)/,
    '/lastro_soak$1',
  );
  return { cluster, databaseUrl };
}

/** A worker added and the shards rebalanced onto it while the clients go on writing. */
async function growWhileWriting(cluster: SoakCitus, port: number): Promise<GrowReport> {
  const report = await cluster.grow(port);
  console.log(
    `soak: grew the cluster by the worker on ${port}: rebalance ${report.state} in ${report.seconds.toFixed(1)} s, ` +
      `${report.placements} shard placements on it`,
  );
  if (report.state !== 'finished') violation(`the rebalance ended ${report.state}, not finished`);
  if (report.placements === 0) violation('the rebalance moved no shard onto the new worker');
  return report;
}

main().catch((error) => {
  console.error('soak: failed:', error);
  process.exit(2);
});
