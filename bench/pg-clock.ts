/**
 * What PostgreSQL did while a load ran: the CPU of the whole server (postmaster, every backend and
 * helper process, and the backends that exited meanwhile, which the postmaster's reaped-children
 * counters hold), read from Linux /proc, and where pg_stat_statements is loaded, the statements run
 * and their execution + planning time. The same clock around pgbench gives its cost per transaction.
 * It works on a server on this machine only (the bench's own); elsewhere it says nothing.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Queryable } from '../src/db/types.ts';

interface Stat {
  ppid: number;
  ownTicks: number;
  childTicks: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, ppid 4, utime 14.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(rest[n - 3]);
    return { ppid: field(4), ownTicks: field(14) + field(15), childTicks: field(16) + field(17) };
  } catch {
    return undefined;
  }
}

const ticksPerSecond = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout;
  return Number(out?.trim()) || 100;
})();

/** CPU ticks of the postmaster, its reaped children and its live children. */
function serverTicks(postmaster: number): number | undefined {
  const root = readStat(postmaster);
  if (!root) return undefined;
  let total = root.ownTicks + root.childTicks;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const child = readStat(pid);
    if (child?.ppid === postmaster) total += child.ownTicks;
  }
  return total;
}

interface Statements {
  calls: number;
  ms: number;
}

async function statements(db: Queryable): Promise<Statements | undefined> {
  try {
    const { rows } = await db.query<{ calls: string; ms: number }>(
      `SELECT coalesce(sum(calls), 0)::text AS calls,
              coalesce(sum(total_exec_time + total_plan_time), 0)::float8 AS ms
         FROM pg_stat_statements`,
    );
    return { calls: Number(rows[0]!.calls), ms: rows[0]!.ms };
  } catch {
    return undefined; // not in shared_preload_libraries, or the extension not created
  }
}

export interface PgWork {
  cpuMs: number | undefined;
  statements: Statements | undefined;
}

export interface PgClock {
  stop(): Promise<PgWork>;
}

/** Starts the clock on the server `db` talks to (undefined cpu when that server is not on this machine). */
export async function startPgClock(db: Queryable): Promise<PgClock> {
  // The view exists once the extension is created in the database read; the library must also be
  // in shared_preload_libraries, or reading it fails and the row says so.
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => {});
  const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = readStat(rows[0]!.pid)?.ppid;
  const ticks0 = postmaster === undefined ? undefined : serverTicks(postmaster);
  const statements0 = await statements(db);
  return {
    async stop() {
      const ticks1 = postmaster === undefined ? undefined : serverTicks(postmaster);
      const statements1 = await statements(db);
      const cpuMs =
        ticks0 === undefined || ticks1 === undefined
          ? undefined
          : ((ticks1 - ticks0) * 1000) / ticksPerSecond;
      const delta =
        statements0 && statements1
          ? { calls: statements1.calls - statements0.calls, ms: statements1.ms - statements0.ms }
          : undefined;
      return { cpuMs, statements: delta };
    },
  };
}

/** One note fragment: PostgreSQL's CPU and statements per operation. */
export function describePgWork(work: PgWork, operations: number): string {
  const per = (value: number) => (value / Math.max(operations, 1)).toFixed(2);
  const cpu =
    work.cpuMs === undefined ? 'PostgreSQL CPU not readable here' : `PostgreSQL CPU ${per(work.cpuMs)} ms`;
  const st = work.statements
    ? `, ${per(work.statements.calls)} statements taking ${per(work.statements.ms)} ms`
    : ' (pg_stat_statements not loaded: no statement counts)';
  return `${cpu}${st} per operation`;
}
