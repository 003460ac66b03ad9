/**
 * Ledger benchmark: transfers (one journal of two postings, in its own transaction) through the ledger
 * service, (a) spread over 1,000 accounts and (b) all debiting one hot account, at 1, 8 and 32 concurrent
 * callers, on PGlite and on PostgreSQL; then pgbench tpcb-like (scale 10) at the same client counts on
 * the same server, as the yardstick; plus the hot account through GroupCommit (src/db/group-commit.ts:
 * one transaction per batch, a savepoint per transfer), the way past the one-row-lock ceiling. Every database used is a scratch one, created and dropped here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { type PartyAccount, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal, transfer } from '../../src/ledger/ledger.ts';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import { newId } from '../../src/platform/ids.ts';
import { scratchDatabase } from '../scratch.ts';
import { type BenchPart, type BenchRow, percentile } from '../table.ts';

const run = promisify(execFile);
const ACCOUNTS = 1000;
const CONCURRENCY = [1, 8, 32];
const PART = 'ledger';

/** One workspace, 1,000 parties with a BRL available balance each, funded by one journal. */
async function seed(db: Database): Promise<{ workspaceId: string; accounts: PartyAccount[] }> {
  await migrate(db);
  const workspace = await db.transaction((tx) => insertWorkspace(tx, { displayName: 'Bench' }));
  const parties = Array.from({ length: ACCOUNTS }, () => newId());
  await db.query(
    `INSERT INTO parties (id, workspace_id, kind, display_name) SELECT id, $2, 'business', 'Bench party' FROM unnest($1::uuid[]) AS id`,
    [parties, workspace.id],
  );
  const accounts = parties.map((party) => partyAccount(workspace.id, 'sandbox', party, 'BRL'));
  const each = 1_000_000_000_000n;
  await db.transaction((tx) =>
    postJournal(tx, {
      workspaceId: workspace.id,
      environment: 'sandbox',
      referenceType: 'bench',
      referenceId: 'funding',
      postings: [
        {
          account: systemAccount.pixSettlement(workspace.id, 'sandbox'),
          direction: 'debit',
          amount: each * BigInt(ACCOUNTS),
        },
        ...accounts.map((account) => ({ account, direction: 'credit' as const, amount: each })),
      ],
    }),
  );
  return { workspaceId: workspace.id, accounts };
}

interface Measured {
  transfersPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

type Transfer = (from: PartyAccount, to: PartyAccount) => Promise<unknown>;

/** `concurrency` callers loop on transfers for `durationMs`; latency is per transfer, call to commit. */
async function measure(
  concurrency: number,
  durationMs: number,
  pick: () => [PartyAccount, PartyAccount],
  post: Transfer,
): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  let failures = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const [from, to] = pick();
      const t0 = performance.now();
      try {
        await post(from, to);
        latencies.push(performance.now() - t0);
      } catch (error) {
        if (++failures > 10) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    transfersPerSec: latencies.length / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

const SCENARIOS = ['spread', 'hot', 'hot-batched'] as const;
type Scenario = (typeof SCENARIOS)[number];
const SCENARIO_TITLES: Record<Scenario, string> = {
  spread: 'transfers spread over 1,000 accounts',
  hot: 'transfers debiting one hot account',
  'hot-batched': 'hot account, group commit (transfers pipelined)',
};

/** A seeded database ready to run any scenario at any concurrency. */
async function ledgerRunner(database: 'pglite' | 'postgres', db: Database, durationMs: number) {
  const { workspaceId, accounts } = await seed(db);
  const random = () => accounts[Math.floor(Math.random() * accounts.length)]!;
  const spread = (): [PartyAccount, PartyAccount] => {
    const from = random();
    let to = random();
    while (to === from) to = random();
    return [from, to];
  };
  const hot = (): [PartyAccount, PartyAccount] => {
    let to = random();
    while (to === accounts[0]) to = random();
    return [accounts[0]!, to];
  };
  const journal = (from: PartyAccount, to: PartyAccount) => ({
    workspaceId,
    environment: 'sandbox' as const,
    referenceType: 'bench',
    referenceId: 'x',
    from,
    to,
    amount: 1n,
  });
  const oneTransaction: Transfer = (from, to) => db.transaction((tx) => transfer(tx, journal(from, to)));
  // One lane: every transfer of the hot account meets in it. ledger_post undoes itself when refused, so
  // the transfers of a batch need no savepoints and are sent side by side, in one round trip.
  const group = new GroupCommit(db, { lanes: 1 });
  const batched: Transfer = (from, to) =>
    group.run(workspaceId, (tx) => transfer(tx, journal(from, to)), { savepoint: false });
  await measure(4, Math.min(1000, durationMs), spread, oneTransaction); // warm-up: caches, plans, pool

  return async (
    scenario: Scenario,
    concurrency: number,
  ): Promise<{ row: BenchRow; transfersPerSec: number }> => {
    const m =
      scenario === 'spread'
        ? await measure(concurrency, durationMs, spread, oneTransaction)
        : await measure(concurrency, durationMs, hot, scenario === 'hot' ? oneTransaction : batched);
    console.error(
      `bench: ledger ${database} ${scenario} c=${concurrency}: ${m.transfersPerSec.toFixed(0)} transfers/s`,
    );
    return {
      transfersPerSec: m.transfersPerSec,
      row: {
        part: PART,
        scenario: SCENARIO_TITLES[scenario],
        database,
        concurrency,
        opsPerSec: m.transfersPerSec * 2,
        p50Ms: m.p50Ms,
        p99Ms: m.p99Ms,
        note: `${m.transfersPerSec.toFixed(0)} transfers/s`,
      },
    };
  };
}

export async function hasPgbench(): Promise<boolean> {
  try {
    await run('pgbench', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** pgbench tpcb-like on a scratch database initialised at scale 10; latency percentiles from its log. */
export async function pgbenchRunner(serverUrl: string, seconds: number) {
  const scratch = await scratchDatabase(serverUrl, 'lastro_pgbench');
  const logDir = mkdtempSync(path.join(tmpdir(), 'lastro-pgbench-'));
  await run('pgbench', ['-i', '-q', '-s', '10', scratch.url], { maxBuffer: 16 << 20 });
  let runs = 0;
  return {
    async measure(clients: number): Promise<BenchRow> {
      // A prefix per run: a second run at the same client count must not read the first one's logs.
      const name = `c${clients}-${++runs}`;
      const prefix = path.join(logDir, name);
      const { stdout } = await run(
        'pgbench',
        [
          '-b',
          'tpcb-like',
          '-c',
          String(clients),
          '-j',
          String(Math.min(clients, 2)),
          '-T',
          String(seconds),
          '-l',
          `--log-prefix=${prefix}`,
          scratch.url,
        ],
        { maxBuffer: 16 << 20 },
      );
      const tps = Number(/tps = ([0-9.]+)/.exec(stdout)?.[1] ?? Number.NaN);
      const latencies: number[] = [];
      for (const file of readdirSync(logDir).filter((f) => f.startsWith(`${name}.`))) {
        for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
          const micros = Number(line.split(' ')[2]);
          if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
        }
      }
      latencies.sort((a, b) => a - b);
      console.error(`bench: pgbench tpcb-like c=${clients}: ${tps.toFixed(0)} tps`);
      return {
        part: PART,
        scenario: 'pgbench tpcb-like, scale 10 (baseline)',
        database: 'postgres',
        concurrency: clients,
        opsPerSec: tps,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        note: 'transactions/s',
      };
    },
    async close() {
      rmSync(logDir, { recursive: true, force: true });
      await scratch.drop();
    },
  };
}

const byScenario = (rows: BenchRow[]) =>
  [...rows].sort(
    (a, b) =>
      Object.values(SCENARIO_TITLES).indexOf(a.scenario) -
        Object.values(SCENARIO_TITLES).indexOf(b.scenario) || a.concurrency - b.concurrency,
  );

export const ledgerBench: BenchPart = {
  name: PART,
  async run({ databaseUrl, quick }) {
    const durationMs = quick ? 1500 : 4000;
    const rows: BenchRow[] = [];

    const lite = await openPglite();
    try {
      const runScenario = await ledgerRunner('pglite', lite, durationMs);
      for (const scenario of SCENARIOS) {
        for (const concurrency of CONCURRENCY) {
          const { row } = await runScenario(scenario, concurrency);
          rows.push({ ...row, note: `${row.note}; embedded, one connection: callers queue` });
        }
      }
    } finally {
      await lite.close();
    }

    if (!databaseUrl) return rows;
    let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
    try {
      scratch = await scratchDatabase(databaseUrl, 'lastro_bench');
    } catch (error) {
      console.error(
        `bench: ledger: no PostgreSQL at the bench URL (${(error as Error).message}); PGlite rows only`,
      );
      return rows;
    }
    const db = openPostgres(scratch.url, Math.max(...CONCURRENCY));
    const pgbench = (await hasPgbench())
      ? await pgbenchRunner(databaseUrl, Math.ceil(durationMs / 1000))
      : undefined;
    const ledgerRowsPg: BenchRow[] = [];
    const baselineRows: BenchRow[] = [];
    try {
      const runScenario = await ledgerRunner('postgres', db, durationMs);
      // pgbench runs right before the ledger at each client count, so both see the same machine load.
      for (const concurrency of CONCURRENCY) {
        const baseline = await pgbench?.measure(concurrency);
        if (baseline) baselineRows.push(baseline);
        let plainHot = 0;
        for (const scenario of SCENARIOS) {
          const { row, transfersPerSec } = await runScenario(scenario, concurrency);
          if (scenario === 'hot') plainHot = transfersPerSec;
          const vsHot =
            scenario === 'hot-batched' && plainHot > 0
              ? `, ${(transfersPerSec / plainHot).toFixed(1)}× plain hot`
              : '';
          ledgerRowsPg.push({
            ...row,
            note: baseline
              ? `${row.note} = ${((100 * transfersPerSec) / baseline.opsPerSec).toFixed(0)} % of pgbench${vsHot}`
              : `${row.note}; pgbench not on PATH: no ratio${vsHot}`,
          });
        }
      }
    } finally {
      await db.close();
      await pgbench?.close();
      await scratch.drop();
    }
    return [...rows, ...byScenario(ledgerRowsPg), ...baselineRows];
  },
};
