import pg from 'pg';
import { withDatabase } from './database-url.ts';

/**
 * Test databases on a Citus cluster: the server named by TEST_DATABASE_URL is a coordinator whose
 * database there lists its workers (scripts/citus-cluster.sh makes one). Citus keeps its metadata
 * per database, so a test database is made on every node, joined, then migrated (which distributes
 * it); a template copy would copy the coordinator's catalog and none of the workers' shards.
 */
export async function citusWorkers(serverUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ citus: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
    );
    if (!rows[0]?.citus) return [];
    const nodes = await client.query<{ host: string; port: number }>(
      `SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary'
        ORDER BY nodeport`,
    );
    return nodes.rows.map((node) => `postgres://postgres@${node.host}:${node.port}/postgres`);
  } finally {
    await client.end();
  }
}

async function onNode(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Makes database `name` on the coordinator and every worker, with Citus, and joins the workers to it. */
export async function createCitusDatabase(
  serverUrl: string,
  workers: string[],
  name: string,
  options: { join: boolean } = { join: true },
): Promise<void> {
  const coordinator = new URL(serverUrl);
  for (const node of [serverUrl, ...workers]) {
    await onNode(withDatabase(node, 'postgres'), [`CREATE DATABASE ${name}`]);
    await onNode(withDatabase(node, name), ['CREATE EXTENSION citus']);
  }
  await onNode(withDatabase(serverUrl, name), [
    `SELECT citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
  ]);
  if (options.join) await joinWorkers(serverUrl, workers, name);
}

/** Adds the workers to database `name` of the coordinator: from then on, migrate distributes it. */
export async function joinWorkers(serverUrl: string, workers: string[], name: string): Promise<void> {
  await onNode(
    withDatabase(serverUrl, name),
    workers.map((worker) => {
      const url = new URL(worker);
      return `SELECT citus_add_node('${url.hostname}', ${Number(url.port)})`;
    }),
  );
}

export async function dropCitusDatabase(serverUrl: string, workers: string[], name: string): Promise<void> {
  for (const node of [serverUrl, ...workers])
    await onNode(withDatabase(node, 'postgres'), [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
}
