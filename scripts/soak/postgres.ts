/**
 * A private PostgreSQL cluster for the soak: initdb as the postgres user in a temporary directory,
 * started on a free loopback port, restarted on demand, stopped and deleted at the end. The shared
 * server at 5432 is never touched.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './net.ts';

const BIN = process.env.SOAK_PG_BIN ?? '/usr/lib/postgresql/15/bin';

const asPostgres = (command: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  }).toString();

export interface PrivateCluster {
  url: string;
  /** The same database over its Unix socket (no TCP stack on each message). */
  socketUrl: string;
  port: number;
  /** Stops the server (smart shutdown modes of pg_ctl: fast or immediate); the data stays. */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  resume(): Promise<void>;
  /** Stops it for good and deletes its directory. */
  stop(): void;
}

const run = promisify(execFile);

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-soak-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  asPostgres('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  // SOAK_PG_OPTIONS adds server settings, e.g. `-c shared_preload_libraries=pg_stat_statements`.
  const extra = process.env.SOAK_PG_OPTIONS ?? '';
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 ${extra}`;
  const ctlArgs = (args: string[]) => [
    '-u',
    'postgres',
    '--',
    path.join(BIN, 'pg_ctl'),
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-t',
    '60',
    ...args,
  ];
  // Synchronous while nothing else runs (start, final stop); asynchronous mid-run, so clients go on.
  const ctl = (args: string[]) =>
    execFileSync('runuser', ctlArgs(args), { stdio: 'ignore', timeout: 120_000 });
  const ctlAsync = async (args: string[]) => {
    await run('runuser', ctlArgs(args), { timeout: 120_000 });
  };
  ctl(['-o', options, 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    socketUrl: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    port,
    halt: (mode) => ctlAsync(['-m', mode, 'stop']),
    resume: () => ctlAsync(['-o', options, 'start']),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        ctl(['-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
