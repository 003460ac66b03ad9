/**
 * A database that already holds a business is distributed in place by the same command that
 * migrates it (docs/scaling.md, "From one PostgreSQL to a cluster"): the service runs on a Citus
 * coordinator with no worker yet, where nothing is distributed; workers join; `migrate` then places
 * every table, Citus copying the rows to the workers. Balances, payments and the books are what they
 * were, and the service goes on. Runs only on a Citus cluster (scripts/citus-cluster.sh).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_TABLES, REFERENCE_TABLES } from '../../src/db/distribute.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { startTestAppOn, type TestContext } from '../support/app.ts';
import { createCitusDatabase, dropCitusDatabase, joinWorkers } from '../support/citus.ts';
import { onCitus } from '../support/database.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';
import { drainJobs, openWorkspace, type Workspace } from '../support/world.ts';

describe.runIf(onCitus())('distributing a database that holds data', () => {
  const serverUrl = testServerUrl()!;
  const workers = inject('citusWorkers');
  const name = `lastro_c_${inject('runId')}_${process.pid}_inplace`;
  let ctx: TestContext;
  const shops: Workspace[] = [];
  const before = new Map<string, Record<string, string>>();

  beforeAll(async () => {
    await createCitusDatabase(serverUrl, workers, name, { join: false });
    const db = openPostgres(withDatabase(serverUrl, name), 20);
    await migrate(db);
    ctx = await startTestAppOn(db);
    for (const shop of ['Alfa', 'Beta', 'Gama', 'Delta', 'Épsilon', 'Zeta']) {
      const ws = await openWorkspace(ctx, shop, { settlementKey: true, fund: '90000' });
      await ws.payout('1500');
      shops.push(ws);
    }
    await drainJobs(ctx);
    for (const ws of shops) before.set(ws.owner.workspaceId, await ws.balances());
  }, 240_000);
  afterAll(async () => {
    await ctx?.close();
    await dropCitusDatabase(serverUrl, workers, name);
  });

  it('nothing is distributed while the coordinator has no worker', async () => {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_dist_partition WHERE partmethod = 'h' OR repmodel = 't'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('once workers join, migrate places every table and keeps every row', async () => {
    const counts = async () =>
      (
        await ctx.db.query<{ payments: number; journals: number; events: number }>(
          `SELECT (SELECT count(*)::int FROM payments) AS payments, (SELECT count(*)::int FROM ledger_journals) AS journals,
                  (SELECT count(*)::int FROM events) AS events`,
        )
      ).rows[0]!;
    const rowsBefore = await counts();
    expect(rowsBefore.payments).toBeGreaterThanOrEqual(12);
    await joinWorkers(serverUrl, workers, name);
    await migrate(ctx.db);
    expect(await counts()).toEqual(rowsBefore);

    const { rows: placed } = await ctx.db.query<{ table: string; kind: string; colocation: number }>(
      `SELECT logicalrelid::regclass::text AS table,
              CASE WHEN partmethod = 'h' THEN 'distributed' WHEN repmodel = 't' THEN 'reference' ELSE 'local' END AS kind,
              colocationid AS colocation
         FROM pg_dist_partition`,
    );
    const kindOf = new Map(placed.map((row) => [row.table, row.kind]));
    for (const table of REFERENCE_TABLES) expect(kindOf.get(table), table).toBe('reference');
    for (const table of LOCAL_TABLES) expect(kindOf.has(table), table).toBe(false);
    const distributed = placed.filter((row) => row.kind === 'distributed');
    expect(distributed.map((row) => row.table)).toEqual(
      expect.arrayContaining(['payments', 'ledger_journals', 'ledger_postings', 'ledger_balances', 'events']),
    );
    expect(new Set(distributed.map((row) => row.colocation)).size).toBe(1);
    const { rows: onWorkers } = await ctx.db.query<{ port: number }>(
      `SELECT DISTINCT nodeport AS port FROM citus_shards WHERE table_name = 'payments'::regclass AND shard_size > 0`,
    );
    expect(onWorkers.length).toBeGreaterThan(0);
  });

  it('balances are what they were, the books verify, and the service goes on', async () => {
    for (const ws of shops) expect(await ws.balances()).toEqual(before.get(ws.owner.workspaceId));
    const report = await verifyBooks(ctx.db);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    const first = shops[0]!;
    const feesBefore = await first.feeRevenue();
    await first.payout('500');
    await drainJobs(ctx);
    const charged = (await first.feeRevenue()) - feesBefore;
    const available = BigInt((await first.balances()).available!);
    expect(available).toBe(BigInt(before.get(first.owner.workspaceId)!.available!) - 500n - charged);
  });
});
