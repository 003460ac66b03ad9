import { type ProgressReporter, SILENT } from '../platform/progress.ts';
import type { Database, Queryable } from './types.ts';

/**
 * Distribution on Citus (docs/scaling.md): on a database with the citus extension and at least one
 * worker, tenant tables are distributed by workspace_id in one co-location group, global tables are
 * reference tables (a copy on every node), and the tables below stay local to the coordinator. On any
 * other database nothing here runs. Idempotent: a table already placed is left as it is, so a service
 * role without DDL rights starts once the owner has run `lastro migrate`.
 */

/** Global data, read on every node: the tenants themselves and what is looked up before a tenant is known. */
export const REFERENCE_TABLES = [
  'workspaces',
  'workspace_members',
  'users',
  'sessions',
  'user_recovery_codes',
  'api_keys',
  'payment_link_slugs',
  'kms_keys',
  'chain_watch_cursors',
] as const;

/** Coordinator-only: the job queue, stand-ins for outside systems, global cursors and operators' queues. */
export const LOCAL_TABLES = [
  'jobs',
  'schema_migrations',
  'sandbox_pix_transfers',
  'sandbox_chain_transfers',
  'psp_notifications',
  'evm_nonces',
  'evm_transfers',
  'evm_log_cursors',
  'set_aside_items',
] as const;

/** The table every other tenant table is co-located with. */
const ANCHOR = 'parties';

/**
 * Triggers a distributed table cannot carry: the journals' append-only rule is kept there by the
 * service role's privileges instead (docs/sql/service-role.sql).
 */
const TRIGGERS_DROPPED = [
  ['ledger_journals', 'ledger_journals_append_only'],
  ['ledger_journals', 'ledger_journals_no_truncate'],
  ['ledger_postings', 'ledger_postings_append_only'],
  ['ledger_postings', 'ledger_postings_no_truncate'],
  ['ledger_seals', 'ledger_seals_append_only'],
  ['ledger_seals', 'ledger_seals_no_truncate'],
] as const;

/**
 * Foreign keys from a reference table to a distributed one, which Citus cannot hold (the reference
 * row is on every node, the tenant row on one): the service checks them where it writes.
 */
const FOREIGN_KEYS_DROPPED = [['api_keys', 'api_keys_party_fkey']] as const;

/** The migration runner's lock (src/db/migrate.ts): placing tables is part of migrating. */
const PLACEMENT_LOCK = 7_466_115;

const LEDGER_POST =
  'ledger_post(uuid, uuid, text, text, text, timestamptz, uuid[], uuid[], text[], bigint[])';

/** True when the database is a Citus coordinator with at least one worker to place shards on. */
export async function isCitusCluster(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ citus: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
  );
  if (!rows[0]?.citus) return false;
  const workers = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM citus_get_active_worker_nodes()',
  );
  return (workers.rows[0]?.n ?? 0) > 0;
}

/**
 * Places every table not yet placed, in one transaction; returns what it did, one line per table
 * (nothing when all were placed). Foreign keys are dropped first and made again after: Citus turns a
 * table that references a reference table into a coordinator-local one, and cannot then distribute a
 * table such a one references, so no order of create_distributed_table calls gets through with them.
 */
export async function distributeSchema(db: Database, progress: ProgressReporter = SILENT): Promise<string[]> {
  if (!(await isCitusCluster(db))) return [];
  return db.transaction(async (tx) => {
    // Two processes starting together must not both place a table: the second waits, then finds it placed.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
    const placed = await placedTables(tx);
    const tenant = tenantTables(await publicTables(tx));
    const pending = [...REFERENCE_TABLES, ...tenant].filter((table) => !placed.has(table));
    if (pending.length === 0) return [];
    // Citus places tables inside a transaction only over one connection per node.
    await tx.query("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'");
    const keys = await dropForeignKeys(tx);
    for (const [table, trigger] of TRIGGERS_DROPPED)
      await tx.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
    const done: string[] = [];
    const task = progress.task('distribute', pending.length);
    for (const table of pending) {
      task.step(table);
      const reference = (REFERENCE_TABLES as readonly string[]).includes(table);
      if (reference) await tx.query('SELECT create_reference_table($1)', [table]);
      else
        await tx.query(
          `SELECT create_distributed_table($1, 'workspace_id', colocate_with => $2)`,
          table === ANCHOR ? [table, 'none'] : [table, ANCHOR],
        );
      done.push(`${table}: ${reference ? 'reference' : 'distributed by workspace_id'}`);
    }
    await restoreForeignKeys(tx, keys);
    await tx.query(
      `SELECT create_distributed_function($1::regprocedure, '$2', colocate_with => 'ledger_journals')`,
      [LEDGER_POST],
    );
    task.done(`${done.length} table(s) placed`);
    return done;
  });
}

/** Reference tables and distributed ones; Citus's own coordinator-local tables count as not placed. */
async function placedTables(q: Queryable): Promise<Set<string>> {
  const { rows } = await q.query<{ name: string }>(
    `SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition
      WHERE partmethod = 'h' OR repmodel = 't'`,
  );
  return new Set(rows.map((row) => row.name));
}

async function publicTables(q: Queryable): Promise<{ name: string; tenant: boolean }[]> {
  const { rows } = await q.query<{ name: string; tenant: boolean }>(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id'
                     AND NOT a.attisdropped) AS tenant
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
  );
  return rows;
}

/**
 * The tenant tables, the anchor first. A table with neither a workspace nor a place in the lists is
 * an error: it must be named somewhere before it can be placed.
 */
export function tenantTables(tables: { name: string; tenant: boolean }[]): string[] {
  const global = new Set<string>([...REFERENCE_TABLES, ...LOCAL_TABLES]);
  const unplaced = tables.filter((table) => !table.tenant && !global.has(table.name));
  if (unplaced.length > 0)
    throw new Error(
      `tables with no workspace_id and no place in src/db/distribute.ts: ${unplaced.map((t) => t.name).join(', ')}`,
    );
  const tenant = tables.filter((t) => t.tenant && !global.has(t.name) && t.name !== ANCHOR);
  return [ANCHOR, ...tenant.map((t) => t.name)];
}

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

async function dropForeignKeys(q: Queryable): Promise<ForeignKey[]> {
  const { rows } = await q.query<ForeignKey>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.contype = 'f' ORDER BY 1, 2`,
  );
  for (const key of rows) await q.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  return rows;
}

async function restoreForeignKeys(q: Queryable, keys: ForeignKey[]): Promise<void> {
  for (const key of keys) {
    if (FOREIGN_KEYS_DROPPED.some(([table, name]) => table === key.table && name === key.name)) continue;
    await q.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
  }
}
