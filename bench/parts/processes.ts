/**
 * The service as a user starts it (`lastro serve`, background workers on) in 1 and in 2 API processes
 * (`--processes N`), on a scratch PostgreSQL database, loaded over HTTP: payouts and sandbox cash-ins
 * spread over the merchants. Each row gives its requests/s, the ratio to pgbench of the same run, and
 * the CPU per request of the whole service (every process of its tree: primary, API processes,
 * workers) and of PostgreSQL, so that what a core buys can be read off (docs/scaling.md).
 * BENCH_PROCESSES=1,2 sets the counts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { openPostgres } from '../../src/db/postgres.ts';
import { chooseLoadGenerator, runLoad } from '../http-load.ts';
import { describePgWork, startPgClock } from '../pg-clock.ts';
import { scratchDatabase, serverAnswers } from '../scratch.ts';
import type { BenchPart, BenchRow } from '../table.ts';
import { cashIn, payout, setUpMerchants } from './http.ts';
import { hasPgbench, pgbenchRunner } from './ledger.ts';

const PART = 'processes';
const CONNECTIONS = 32;
const root = path.resolve(import.meta.dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** CPU ticks (user + system) of `pid` and all its descendants, alive now. */
function treeTicks(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) });
    } catch {
      // ended while listing
    }
  }
  const inTree = (candidate: number): boolean => {
    for (let at = candidate, hops = 0; at > 1 && hops < 16; hops++) {
      if (at === pid) return true;
      at = stats.get(at)?.ppid ?? 0;
    }
    return false;
  };
  let total = 0;
  for (const [candidate, stat] of stats) if (inTree(candidate)) total += stat.ticks;
  return total;
}

async function startService(databaseUrl: string, processes: number, masterKey: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    // V8 as every other start of the server runs it (docs/scaling.md).
    ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts', 'serve', '--processes', String(processes)],
    {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MAX: '1000000',
        SANDBOX_SETTLE_MS: '1000',
        MASTER_KEY: masterKey,
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${url}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    return stopped;
  };
  return { url, pid: child.pid!, stop };
}

async function call(url: string, method: string, route: string, payload: object, headers = {}) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  const body = (await res.json()) as { data: unknown };
  if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

const SCENARIOS = [
  { id: 'payout-spread', title: 'payouts, spread, `lastro serve`', target: payout },
  { id: 'cash-in-spread', title: 'sandbox cash-ins, spread, `lastro serve`', target: cashIn },
] as const;

async function measureProcesses(serverUrl: string, processes: number, seconds: number, pgbenchTps?: number) {
  const scratch = await scratchDatabase(serverUrl, 'lastro_bench_procs');
  const db = openPostgres(scratch.url, 2);
  const masterKey = randomBytes(32).toString('hex');
  const service = await startService(scratch.url, processes, masterKey);
  const rows: BenchRow[] = [];
  try {
    const merchants = await setUpMerchants(
      (method, route, payload, headers) => call(service.url, method, route, payload, headers),
      `${process.pid}-${processes}`,
    );
    const generator = chooseLoadGenerator();
    await runLoad(
      { url: service.url, connections: 8, seconds: 1, targets: merchants.map(payout) },
      generator,
    );
    for (const scenario of SCENARIOS) {
      const pgClock = await startPgClock(db);
      const ticks0 = treeTicks(service.pid);
      const targets = merchants.map(scenario.target);
      const result = await runLoad(
        { url: service.url, connections: CONNECTIONS, seconds, targets },
        generator,
      );
      // The settlement jobs and events of the last requests finish after the load: count them too.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const serviceMs = ((treeTicks(service.pid) - ticks0) * 1000) / 100;
      const pgWork = describePgWork(await pgClock.stop(), result['2xx']);
      const perSec = result['2xx'] / result.duration;
      const ratio = pgbenchTps ? `; = ${((100 * perSec) / pgbenchTps).toFixed(0)} % of pgbench` : '';
      console.error(`bench: processes=${processes} ${scenario.id}: ${perSec.toFixed(0)} requests/s`);
      rows.push({
        part: PART,
        scenario: `${scenario.title} --processes ${processes}`,
        scenarioId: `${scenario.id}-${processes}`,
        database: 'postgres',
        concurrency: CONNECTIONS,
        opsPerSec: perSec,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        note:
          `requests/s by ${generator}, non-2xx ${result.non2xx}, errors ${result.errors + result.timeouts}${ratio}; ` +
          `service CPU ${(serviceMs / Math.max(result['2xx'], 1)).toFixed(2)} ms a request (all its processes, ` +
          `jobs and events included); ${pgWork}`,
      });
    }
  } finally {
    await service.stop();
    await db.close();
  }
  const verified = verify(scratch.url, masterKey);
  await scratch.drop();
  return rows.map((row) => ({ ...row, note: `${row.note}; ${verified}` }));
}

/** `lastro verify` on the run's books: the settlement jobs ran, so the whole of the books is checked. */
function verify(databaseUrl: string, masterKey: string): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'verify'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, MASTER_KEY: masterKey, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return run.status === 0 ? 'lastro verify clean' : `LASTRO VERIFY FAILED (exit ${run.status})`;
}

export const processesBench: BenchPart = {
  name: PART,
  async run({ databaseUrl, quick }) {
    if (!databaseUrl || !(await serverAnswers(databaseUrl))) {
      console.error('bench: processes: no PostgreSQL at the bench URL; no rows');
      return [];
    }
    const seconds = quick ? 3 : 10;
    const counts = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
    const pgbench = (await hasPgbench()) ? await pgbenchRunner(databaseUrl, seconds) : undefined;
    const rows: BenchRow[] = [];
    try {
      for (const processes of counts) {
        const baseline = await pgbench?.measure(CONNECTIONS);
        rows.push(...(await measureProcesses(databaseUrl, processes, seconds, baseline?.opsPerSec)));
        if (baseline) rows.push({ ...baseline, part: PART });
      }
    } finally {
      await pgbench?.close();
    }
    return rows;
  },
};
