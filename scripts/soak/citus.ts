/**
 * The soak on a Citus cluster that is already running (scripts/citus-cluster.sh up): a database of
 * its own on every node, joined, which the service distributes when it migrates. "PostgreSQL
 * restarts" stop and start the coordinator, the node every request goes through. Growing adds a
 * worker while the clients write and moves shards onto it with Citus's rebalancer (logical
 * replication, so writes go on during each move).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { citusWorkers, createCitusDatabase, dropCitusDatabase } from '../../test/support/citus.ts';
import { withDatabase } from '../../test/support/database-url.ts';
import type { PrivateCluster } from './postgres.ts';

const run = promisify(execFile);
const SOAK_SHARD_COUNT = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SoakCitus extends PrivateCluster {
  /** Adds the node on `port` (made if missing) and rebalances; resolves when every move is done. */
  grow(port: number): Promise<GrowReport>;
}

export interface GrowReport {
  seconds: number;
  /** Shard placements on the new node once the rebalance finished. */
  placements: number;
  state: string;
}

/** The Debian cluster (pg_lsclusters) listening on `port`: its version and name. */
function clusterOn(port: number): [string, string] {
  const lines = execFileSync('pg_lsclusters', ['-h']).toString().trim().split('\n');
  const found = lines.map((line) => line.split(/\s+/)).find((cols) => Number(cols[2]) === port);
  if (!found) throw new Error(`no PostgreSQL cluster of this machine listens on port ${port}`);
  return [found[0]!, found[1]!];
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

export async function openCitusCluster(serverUrl: string, name: string): Promise<SoakCitus> {
  // The database named in the URL lists the workers (scripts/citus-cluster.sh prints such a URL).
  const workers = await citusWorkers(serverUrl);
  if (workers.length === 0) throw new Error(`${serverUrl} is not a Citus coordinator with workers`);
  await createCitusDatabase(serverUrl, workers, name);
  const url = withDatabase(serverUrl, name);
  // Fewer shards than the cluster's default: the rebalance still moves shard groups while the
  // clients write, in a fraction of the time a small CI machine takes to move 32 of each table.
  await query(
    withDatabase(serverUrl, 'postgres'),
    `ALTER DATABASE ${name} SET citus.shard_count = ${SOAK_SHARD_COUNT}`,
  );
  const coordinatorPort = Number(new URL(serverUrl).port || 5432);
  const [version, cluster] = clusterOn(coordinatorPort);
  const ctl = (action: string, ...args: string[]) =>
    run('pg_ctlcluster', ['--skip-systemctl-redirect', ...args, version, cluster, action], {
      timeout: 120_000,
    });
  const added: string[] = [];
  return {
    url,
    socketUrl: url,
    port: coordinatorPort,
    halt: async (mode) => {
      await ctl('stop', '-m', mode);
    },
    resume: async () => {
      await ctl('start');
    },
    grow: (port) => grow(url, serverUrl, name, port, added),
    stop() {
      void dropCitusDatabase(withDatabase(serverUrl, 'postgres'), [...workers, ...added], name).catch(
        (error) => console.error(`soak: could not drop ${name}: ${error}`),
      );
    },
  };
}

async function grow(url: string, serverUrl: string, name: string, port: number, added: string[]) {
  const started = Date.now();
  const coordinatorPort = new URL(serverUrl).port || '5432';
  // The script makes the node (once) and joins it to its own database; ours is joined below.
  await run('bash', ['scripts/citus-cluster.sh', 'add', String(port), coordinatorPort], { timeout: 180_000 });
  const worker = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await query(worker, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await query(worker, `CREATE DATABASE ${name}`);
  added.push(worker);
  await query(withDatabase(worker, name), 'CREATE EXTENSION citus');
  await query(url, `SELECT citus_add_node('127.0.0.1', ${port})`);
  await query(url, 'SELECT citus_rebalance_start()');
  let state = 'running';
  for (let i = 0; i < 1200 && (state === 'running' || state === 'scheduled'); i++) {
    await sleep(500);
    const rows = await query<{ state: string }>(url, 'SELECT state FROM citus_rebalance_status()').catch(
      () => [{ state: 'running' }],
    );
    state = rows[0]?.state ?? 'finished';
  }
  const [placed] = await query<{ count: string }>(
    url,
    `SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_node n USING (groupid) WHERE n.nodeport = ${port}`,
  );
  return { seconds: (Date.now() - started) / 1000, placements: Number(placed?.count ?? 0), state };
}
