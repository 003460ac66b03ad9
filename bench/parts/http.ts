/**
 * Money-moving requests over HTTP: the real Fastify app (logging as `npm start` does, at info, its JSON
 * lines written to /dev/null; rate limit out of the way; no background workers: what is timed is the
 * acknowledgement) listening on 127.0.0.1, loaded by
 * wrk (autocannon when wrk is missing) from a separate process (bench/http-load.ts), 32 keep-alive connections, a fresh
 * Idempotency-Key per request. Scenarios:
 *   - payouts of one merchant: every request debits the same balance (the hot row);
 *   - payouts spread over 32 workspaces, round robin;
 *   - sandbox cash-ins spread over 32 workspaces.
 * On PostgreSQL (scratch database, pool of 32) with pgbench tpcb-like at 32 clients run just before and
 * just after, as the yardstick, and on in-memory PGlite. Each scenario is warmed up for 10 s first. After each scenario the books are checked: every workspace's
 * locked balance is its payouts × (amount + fee), its available one its cash-ins minus that.
 * BENCH_GROUP_COMMIT_LANES=N runs the server with GROUP_COMMIT_LANES=N (0: one transaction per request).
 * BENCH_HTTP_PGLITE=0 leaves the PGlite rows out. BENCH_LOG=0 serves with the logger off.
 * BENCH_CITUS_URL=<coordinator URL> (scripts/citus-cluster.sh prints one) adds the cash-in row on that
 * Citus cluster, in a scratch database distributed by workspace, as a ratio to the PostgreSQL row.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { createDeps } from '../../src/deps.ts';
import { citusWorkers, createCitusDatabase, dropCitusDatabase } from '../../test/support/citus.ts';
import { chooseLoadGenerator, type LoadTarget, runLoad } from '../http-load.ts';
import { describePgWork, startPgClock } from '../pg-clock.ts';
import { scratchDatabase, serverAnswers, withDatabase } from '../scratch.ts';
import { describeServerClock, startServerClock } from '../server-clock.ts';
import type { BenchPart, BenchRow } from '../table.ts';
import { hasPgbench, pgbenchRunner } from './ledger.ts';

const PART = 'http';
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32);
const WORKSPACES = 32;
const AMOUNT = 100n;
const FUNDING = 999_999_999_999n;
const WARM_UP_SECONDS = 10;

/**
 * pgbench tpcb-like runs right before the PostgreSQL scenarios and again right after them: this
 * machine's speed drifts by a third within minutes, so a PostgreSQL row is set against the mean of the
 * two runs that bracket it rather than against the one before it alone (the PGlite rows, which run
 * later, against the same mean, and their notes say so).
 */
interface Yardstick {
  before: number;
  after?: number;
}
const meanTps = (yardstick: Yardstick) =>
  yardstick.after === undefined ? yardstick.before : (yardstick.before + yardstick.after) / 2;

/**
 * The rows with their share of pgbench's transactions a second appended to their notes. `bracketed`:
 * the rows ran between the two pgbench runs (the PostgreSQL rows); the others ran after both.
 */
function withRatios(rows: BenchRow[], yardstick: Yardstick | undefined, bracketed = true): BenchRow[] {
  if (yardstick === undefined) return rows;
  const tps = meanTps(yardstick);
  const before = yardstick.before.toFixed(0);
  const runs =
    yardstick.after === undefined
      ? `${before} tps`
      : bracketed
        ? `mean of ${before} before and ${yardstick.after.toFixed(0)} after`
        : `mean of the PostgreSQL rows' runs, ${before} and ${yardstick.after.toFixed(0)}`;
  return rows.map((row) => ({
    ...row,
    note: `${row.note}; = ${((100 * row.opsPerSec) / tps).toFixed(0)} % of pgbench (${runs})`,
  }));
}

export interface Merchant {
  workspaceId: string;
  auth: Record<string, string>;
}

const SCENARIOS = [
  { id: 'payout-hot', title: 'payouts over HTTP, one merchant (one balance)' },
  { id: 'payout-spread', title: `payouts over HTTP, spread over ${WORKSPACES} workspaces` },
  { id: 'cash-in-spread', title: `sandbox cash-ins over HTTP, spread over ${WORKSPACES} workspaces` },
] as const;

type Call = (
  method: 'POST' | 'PUT',
  url: string,
  payload: object,
  headers?: Record<string, string>,
) => Promise<BodyData>;

// biome-ignore lint/suspicious/noExplicitAny: the data of any setup route's answer
type BodyData = any;

/** Signs up WORKSPACES merchants through `call`, each with a sandbox key, funds and a settlement key. */
export async function setUpMerchants(call: Call, tag: string): Promise<Merchant[]> {
  const merchants: Merchant[] = [];
  for (let i = 0; i < WORKSPACES; i++) {
    const signup = await call('POST', '/v1/auth/signup', {
      email: `bench-${tag}-${i}@example.com`,
      password: 'correct horse battery staple',
      workspace_name: `Bench ${i}`,
    });
    const workspaceId: string = signup.workspace.id;
    const session = { authorization: `Bearer ${signup.session_token}`, 'x-workspace-id': workspaceId };
    const key = await call('POST', '/v1/sandbox/api-keys', { name: 'bench' }, session);
    const auth = { authorization: `Bearer ${key.secret}`, 'x-workspace-id': workspaceId };
    await call('POST', '/v1/sandbox/simulate/pix/cash-in', { amount_minor: String(FUNDING) }, auth);
    const settlement = {
      pix_key: 'tesouraria@bench.com.br',
      holder_name: 'Bench Ltda',
      holder_document: '11222333000181',
    };
    await call('PUT', '/v1/sandbox/settlement-key', settlement, session);
    merchants.push({ workspaceId, auth });
  }
  return merchants;
}

export async function serveForBench(db: Database, groupCommitLanes?: string) {
  await migrate(db);
  // A user's server logs a line a request: its cost is the request's. /dev/null takes the lines as
  // stdout does (pino's default destination, written behind the event loop), without a disk or a
  // reader in the figure.
  const logged = process.env.BENCH_LOG !== '0';
  const config = loadConfig({
    LOG_LEVEL: logged ? 'info' : 'silent',
    RATE_LIMIT_MAX: '1000000',
    SANDBOX_SETTLE_MS: '1000',
    ...(groupCommitLanes === undefined ? {} : { GROUP_COMMIT_LANES: groupCommitLanes }),
  });
  const deps = createDeps(config, db, { masterKey: randomBytes(32).toString('hex') });
  const app = await buildApp(
    deps,
    logged ? { logStream: pino.destination({ dest: '/dev/null', sync: false }) } : { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const merchants = await setUpMerchants(async (method, url, payload, headers = {}) => {
    const res = await app.inject({ method, url, payload, headers });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  }, String(process.pid));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { url, merchants, close: () => app.close() };
}

export const payout = (m: Merchant): LoadTarget => ({
  path: '/v1/sandbox/pix/payouts',
  headers: m.auth,
  body: JSON.stringify({ amount_minor: String(AMOUNT), pix_key: '52998224725' }),
});
export const cashIn = (m: Merchant): LoadTarget => ({
  path: '/v1/sandbox/simulate/pix/cash-in',
  headers: m.auth,
  body: JSON.stringify({ amount_minor: String(AMOUNT) }),
});

/** Whether every workspace's books add up: locked = payouts × (amount + fee), available = cash-ins − that. */
export async function booksAddUp(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ bad: number }>(
    `WITH p AS (
       SELECT workspace_id,
              coalesce(sum(amount_minor + fee_minor) FILTER (WHERE kind = 'pix_cash_out'), 0) AS out,
              coalesce(sum(amount_minor) FILTER (WHERE kind = 'pix_cash_in'), 0) AS cash_in
         FROM payments GROUP BY workspace_id),
     b AS (
       SELECT a.workspace_id,
              coalesce(sum(b.balance) FILTER (WHERE a.kind = 'locked'), 0) AS locked,
              coalesce(sum(b.balance) FILTER (WHERE a.kind = 'available'), 0) AS available
         FROM ledger_accounts a
         JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
        WHERE a.party_id IS NOT NULL GROUP BY a.workspace_id)
     SELECT count(*)::int AS bad FROM p LEFT JOIN b USING (workspace_id)
      WHERE coalesce(b.locked, 0) <> p.out OR coalesce(b.available, 0) <> p.cash_in - p.out`,
  );
  return rows[0]!.bad === 0;
}

async function measure(
  database: BenchRow['database'],
  db: Database,
  seconds: number,
  scenarios: readonly (typeof SCENARIOS)[number][] = SCENARIOS,
): Promise<BenchRow[]> {
  const server = await serveForBench(db, process.env.BENCH_GROUP_COMMIT_LANES);
  const rows: BenchRow[] = [];
  try {
    const { url, merchants } = server;
    const generator = chooseLoadGenerator();
    for (const scenario of scenarios) {
      const targets =
        scenario.id === 'payout-hot'
          ? [payout(merchants[0]!)]
          : merchants.map(scenario.id === 'payout-spread' ? payout : cashIn);
      // Each scenario's own code is compiled before its window, so what is measured is the steady state:
      // under this load V8 goes on optimising the request path for about ten seconds (--trace-opt).
      await runLoad({ url, connections: CONNECTIONS, seconds: WARM_UP_SECONDS, targets }, generator);
      const pgClock = database === 'pglite' ? undefined : await startPgClock(db);
      const clock = startServerClock();
      const result = await runLoad({ url, connections: CONNECTIONS, seconds, targets }, generator);
      const serverClock = clock.stop();
      const pgWork = pgClock && describePgWork(await pgClock.stop(), result['2xx']);
      const serverTime =
        describeServerClock(serverClock, result['2xx'], result.duration) + (pgWork ? `; ${pgWork}` : '');
      // Requests in flight when the load stops still commit: let them, then check the books.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const ok = await booksAddUp(db);
      const perSec = result['2xx'] / result.duration;
      console.error(`bench: http ${database} ${scenario.id}: ${perSec.toFixed(0)} requests/s`);
      rows.push({
        part: PART,
        scenario: scenario.title,
        database,
        scenarioId: scenario.id,
        concurrency: CONNECTIONS,
        opsPerSec: perSec,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        note:
          `requests/s by ${generator}, ${result['2xx']} in ${result.duration.toFixed(1)} s, non-2xx ${result.non2xx}, ` +
          `errors ${result.errors + result.timeouts}; ${serverTime}` +
          (ok ? '; books add up' : '; BOOKS DO NOT ADD UP'),
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}

/**
 * The cash-in row on a Citus cluster of this machine: what distribution costs per request (every
 * statement goes through the coordinator to a worker), as a ratio to the same row on PostgreSQL.
 */
async function citusRows(serverUrl: string, seconds: number, postgres: BenchRow | undefined) {
  const workers = await citusWorkers(serverUrl);
  if (workers.length === 0) {
    console.error(`bench: http: ${serverUrl} is not a Citus coordinator with workers; no Citus row`);
    return [];
  }
  const name = `lastro_bench_citus_${process.pid}`;
  await createCitusDatabase(serverUrl, workers, name);
  const db = openPostgres(withDatabase(serverUrl, name), CONNECTIONS);
  try {
    const cashIns = SCENARIOS.filter((scenario) => scenario.id === 'cash-in-spread');
    const rows = await measure('citus', db, seconds, cashIns);
    return rows.map((row) => ({
      ...row,
      note:
        `${row.note}; ${workers.length} workers` +
        (postgres
          ? `; = ${((100 * row.opsPerSec) / postgres.opsPerSec).toFixed(0)} % of the PostgreSQL row`
          : ''),
    }));
  } finally {
    await db.close();
    await dropCitusDatabase(serverUrl, workers, name);
  }
}

export const httpBench: BenchPart = {
  name: PART,
  async run({ databaseUrl, quick }) {
    const seconds = quick ? 3 : 10;
    const rows: BenchRow[] = [];
    let yardstick: Yardstick | undefined;
    if (databaseUrl && (await serverAnswers(databaseUrl))) {
      const pgbench = (await hasPgbench()) ? await pgbenchRunner(databaseUrl, seconds) : undefined;
      const scratch = await scratchDatabase(databaseUrl, 'lastro_bench_http');
      // The pool matches the connections, as a production deployment would size it.
      const db = openPostgres(scratch.url, CONNECTIONS);
      try {
        const pgClock = await startPgClock(db);
        const baseline = await pgbench?.measure(CONNECTIONS);
        const pgWork = await pgClock.stop();
        const measured = await measure('postgres', db, seconds);
        // The rows are measured already: a second pgbench that fails only leaves them the first.
        const after = await pgbench?.measure(CONNECTIONS).catch((error: Error) => {
          console.error(`bench: http: pgbench after the scenarios failed (${error.message})`);
          return undefined;
        });
        const afterTps = after && Number.isFinite(after.opsPerSec) ? after.opsPerSec : undefined;
        if (baseline) yardstick = { before: baseline.opsPerSec, after: afterTps };
        rows.push(...withRatios(measured, yardstick));
        if (baseline) {
          const transactions = baseline.opsPerSec * seconds;
          rows.push({
            ...baseline,
            part: PART,
            note:
              `${baseline.note}; ${describePgWork(pgWork, transactions)}` +
              (afterTps ? `; ${afterTps.toFixed(0)} transactions/s when run again after the scenarios` : ''),
          });
        }
      } finally {
        await db.close();
        await pgbench?.close();
        await scratch.drop();
      }
    } else {
      console.error('bench: http: no PostgreSQL at the bench URL; PGlite rows only');
    }
    const citusUrl = process.env.BENCH_CITUS_URL;
    if (citusUrl) {
      const postgres = rows.find((row) => row.database === 'postgres' && row.scenarioId === 'cash-in-spread');
      rows.push(...(await citusRows(citusUrl, seconds, postgres)));
    }
    if (process.env.BENCH_HTTP_PGLITE === '0') return rows;
    const lite = await openPglite();
    try {
      rows.push(...withRatios(await measure('pglite', lite, seconds), yardstick, false));
    } finally {
      await lite.close();
    }
    return rows;
  },
};
