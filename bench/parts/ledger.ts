/**
 * Ledger benchmark: transfers (one journal of two postings, in its own transaction) through the ledger
 * service, (a) spread over 1,000 accounts and (b) all debiting one hot account, at 1, 8 and 32 concurrent
 * callers, on PGlite and on PostgreSQL; then pgbench tpcb-like (scale 10) at the same client counts on
 * the same server, as the yardstick. Every database used is a scratch one, created and dropped here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { type PartyAccount, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal, transfer } from '../../src/ledger/ledger.ts';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import { newId } from '../../src/platform/ids.ts';
import { type BenchPart, type BenchRow, percentile } from '../table.ts';

const run = promisify(execFile);
const ACCOUNTS = 1000;
const CONCURRENCY = [1, 8, 32];
const PART = 'ledger';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Creates a scratch database on the server; drop() removes it. */
async function scratchDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

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
          account: systemAccount.pixSettlement('sandbox'),
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

/** `concurrency` callers loop on transfers for `durationMs`; latency is per transaction. */
async function measure(
  db: Database,
  workspaceId: string,
  concurrency: number,
  durationMs: number,
  pick: () => [PartyAccount, PartyAccount],
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
        await db.transaction((tx) =>
          transfer(tx, {
            workspaceId,
            environment: 'sandbox',
            referenceType: 'bench',
            referenceId: 'x',
            from,
            to,
            amount: 1n,
          }),
        );
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

async function ledgerRows(
  database: 'pglite' | 'postgres',
  db: Database,
  durationMs: number,
): Promise<{ row: BenchRow; transfersPerSec: number }[]> {
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
  await measure(db, workspaceId, 4, Math.min(1000, durationMs), spread); // warm-up: caches, plans, pool
  const out: { row: BenchRow; transfersPerSec: number }[] = [];
  for (const [scenario, pick] of [
    ['transfers spread over 1,000 accounts', spread],
    ['transfers debiting one hot account', hot],
  ] as const) {
    for (const concurrency of CONCURRENCY) {
      const m = await measure(db, workspaceId, concurrency, durationMs, pick);
      console.error(
        `bench: ledger ${database} ${scenario} c=${concurrency}: ${m.transfersPerSec.toFixed(0)} transfers/s`,
      );
      out.push({
        transfersPerSec: m.transfersPerSec,
        row: {
          part: PART,
          scenario,
          database,
          concurrency,
          opsPerSec: m.transfersPerSec * 2,
          p50Ms: m.p50Ms,
          p99Ms: m.p99Ms,
          note: `${m.transfersPerSec.toFixed(0)} transfers/s`,
        },
      });
    }
  }
  return out;
}

async function hasPgbench(): Promise<boolean> {
  try {
    await run('pgbench', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** pgbench tpcb-like at each client count; latency percentiles from its per-transaction log. */
async function pgbenchRows(serverUrl: string, seconds: number): Promise<Map<number, BenchRow>> {
  const scratch = await scratchDatabase(serverUrl, 'lastro_pgbench');
  const logDir = mkdtempSync(path.join(tmpdir(), 'lastro-pgbench-'));
  const rows = new Map<number, BenchRow>();
  try {
    await run('pgbench', ['-i', '-q', '-s', '10', scratch.url], { maxBuffer: 16 << 20 });
    for (const clients of CONCURRENCY) {
      const prefix = path.join(logDir, `c${clients}`);
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
      for (const file of readdirSync(logDir).filter((f) => f.startsWith(`c${clients}.`))) {
        for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
          const micros = Number(line.split(' ')[2]);
          if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
        }
      }
      latencies.sort((a, b) => a - b);
      console.error(`bench: pgbench tpcb-like c=${clients}: ${tps.toFixed(0)} tps`);
      rows.set(clients, {
        part: PART,
        scenario: 'pgbench tpcb-like, scale 10 (baseline)',
        database: 'postgres',
        concurrency: clients,
        opsPerSec: tps,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        note: 'transactions/s',
      });
    }
  } finally {
    rmSync(logDir, { recursive: true, force: true });
    await scratch.drop();
  }
  return rows;
}

export const ledgerBench: BenchPart = {
  name: PART,
  async run({ databaseUrl, quick }) {
    const durationMs = quick ? 1500 : 5000;
    const rows: BenchRow[] = [];

    const lite = await openPglite();
    try {
      for (const { row } of await ledgerRows('pglite', lite, durationMs)) {
        rows.push({ ...row, note: `${row.note}; embedded, one connection: callers queue` });
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
    let measured: { row: BenchRow; transfersPerSec: number }[];
    try {
      const db = openPostgres(scratch.url, Math.max(...CONCURRENCY));
      try {
        measured = await ledgerRows('postgres', db, durationMs);
      } finally {
        await db.close();
      }
    } finally {
      await scratch.drop();
    }

    const baseline = (await hasPgbench())
      ? await pgbenchRows(databaseUrl, Math.ceil(durationMs / 1000))
      : new Map();
    for (const { row, transfersPerSec } of measured) {
      const reference = baseline.get(row.concurrency);
      rows.push(
        reference
          ? {
              ...row,
              note: `${row.note} = ${((100 * transfersPerSec) / reference.opsPerSec).toFixed(0)} % of pgbench`,
            }
          : { ...row, note: `${row.note}; pgbench not on PATH: no ratio` },
      );
    }
    rows.push(...baseline.values());
    return rows;
  },
};
