/**
 * Migration 0006 (tenant-local books) on a database that already has data: a database is built at
 * migrations 0001–0005, several workspaces post journals against the shared system accounts of that
 * time (through ledger_post, as the service did), then the runner applies 0006. The shared accounts
 * must end at 0, each workspace's own accounts must hold its share under the ids TypeScript derives,
 * every currency must still sum to zero, and journals and postings may only have been appended.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Database, Tx } from '../../src/db/types.ts';
import {
  accountId,
  accountIdOfKey,
  balanceOf,
  partyAccount,
  SYSTEM_KINDS,
  type SystemAccount,
  type SystemKind,
  systemAccount,
  systemTotals,
} from '../../src/ledger/accounts.ts';
import { CURRENCY_CODES, type Currency } from '../../src/ledger/currency.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import type { Environment } from '../../src/platform/context.ts';
import { newId } from '../../src/platform/ids.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/db/migrations');
const BEFORE = '0005_pix.sql';

/** An empty database of this file's own (the shared test template is already at the newest migration). */
async function emptyDatabase(): Promise<Database> {
  const serverUrl = testServerUrl();
  if (!serverUrl) return openPglite();
  const name = `lastro_m_${inject('runId')}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = openPostgres(withDatabase(serverUrl, name), 4);
  return {
    ...db,
    close: async () => {
      await db.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** Applies the migrations up to `last` and records them as the runner does, so it later applies the rest. */
async function migrateUpTo(db: Database, last: string): Promise<void> {
  const files = readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql') && name <= last)
    .sort();
  await db.transaction(async (tx) => {
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const name of files) {
      await tx.exec(readFileSync(path.join(MIGRATIONS, name), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
  });
}

/** A shared system account as it was named before 0006: no workspace in the key. */
interface Shared {
  environment: Environment;
  kind: SystemKind;
  currency: Currency;
  network: string | null;
}
const sharedId = (a: Shared) =>
  accountIdOfKey(`system|${a.environment}|${a.kind}|${a.currency}|${a.network ?? ''}`);
const ownAccount = (workspaceId: string, a: Shared): SystemAccount => ({
  type: 'system',
  workspaceId,
  ...a,
});

const settlement = (environment: Environment): Shared => ({
  environment,
  kind: 'pix_settlement',
  currency: 'BRL',
  network: null,
});
const fees = (environment: Environment, currency: Currency): Shared => ({
  environment,
  kind: 'fee_revenue',
  currency,
  network: null,
});
const custody = (environment: Environment, currency: Currency, network: string): Shared => ({
  environment,
  kind: 'crypto_custody',
  currency,
  network,
});
const inventory = (environment: Environment, currency: Currency): Shared => ({
  environment,
  kind: 'fx_inventory',
  currency,
  network: null,
});

type Leg = { shared: Shared } | { party: string; currency: Currency };
type OldPosting = [Leg, 'debit' | 'credit', bigint];

interface Snapshot {
  journals: Record<string, unknown>[];
  postings: Record<string, unknown>[];
}
const snapshot = async (db: Database): Promise<Snapshot> => ({
  journals: (await db.query('SELECT * FROM ledger_journals ORDER BY id')).rows,
  postings: (await db.query('SELECT * FROM ledger_postings ORDER BY id')).rows,
});

describe('migration 0006_tenant_books on a database with data', () => {
  let db: Database;
  let workspaces: { id: string; party: string }[];
  let before: Snapshot;
  let applied: string[];
  /** Expected share of each (workspace, shared account): Σ credits − Σ debits of its journals on it. */
  const shares = new Map<string, { workspaceId: string; shared: Shared; share: bigint }>();

  /** Posts one journal the way the service did before 0006: shared system accounts, ledger_post. */
  async function postOld(tx: Tx, workspaceId: string, environment: Environment, postings: OldPosting[]) {
    const ids = postings.map(([leg]) =>
      'shared' in leg
        ? sharedId(leg.shared)
        : accountId(partyAccount(workspaceId, environment, leg.party, leg.currency)),
    );
    for (const [leg] of postings) {
      if ('party' in leg) {
        // As the service created a party account then: no workspace in the balance row's key.
        const id = accountId(partyAccount(workspaceId, environment, leg.party, leg.currency));
        await tx.query(
          `INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network)
           VALUES ($1, $2, $3, $4, $5, 'available', NULL) ON CONFLICT DO NOTHING`,
          [id, workspaceId, environment, leg.party, leg.currency],
        );
        await tx.query(
          'INSERT INTO ledger_balances (account_id, non_negative) VALUES ($1, true) ON CONFLICT DO NOTHING',
          [id],
        );
      } else {
        const s = leg.shared;
        await tx.query(
          `INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network)
           VALUES ($1, NULL, $2, NULL, $3, $4, $5) ON CONFLICT DO NOTHING`,
          [sharedId(s), s.environment, s.currency, s.kind, s.network],
        );
        await tx.query(
          'INSERT INTO ledger_balances (account_id, non_negative) VALUES ($1, false) ON CONFLICT DO NOTHING',
          [sharedId(s)],
        );
      }
    }
    const { rows } = await tx.query<{ outcome: string }>(
      'SELECT outcome FROM ledger_post($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[], $9::text[], $10::bigint[])',
      [
        newId(),
        workspaceId,
        environment,
        'payment',
        newId(),
        new Date(),
        postings.map(() => newId()),
        ids,
        postings.map(([, direction]) => direction),
        postings.map(([, , amount]) => amount),
      ],
    );
    expect(rows[0]!.outcome).toBe('ok');
    for (const [leg, direction, amount] of postings) {
      if (!('shared' in leg)) continue;
      const key = `${workspaceId}|${sharedId(leg.shared)}`;
      const entry = shares.get(key) ?? { workspaceId, shared: leg.shared, share: 0n };
      entry.share += direction === 'credit' ? amount : -amount;
      shares.set(key, entry);
    }
  }

  beforeAll(async () => {
    db = await emptyDatabase();
    await migrateUpTo(db, BEFORE);
    workspaces = [];
    for (const name of ['Alfa', 'Beta', 'Gama', 'Delta']) {
      const ws = await db.transaction((tx) => insertWorkspace(tx, { displayName: name }));
      workspaces.push({ id: ws.id, party: ws.default_party_id });
    }
    const [a, b, c] = workspaces as [(typeof workspaces)[0], (typeof workspaces)[0], (typeof workspaces)[0]];
    const brl = (party: string) => ({ party, currency: 'BRL' as const });
    const usdt = (party: string) => ({ party, currency: 'USDT' as const });
    await db.transaction(async (tx) => {
      // Alfa, sandbox: two cash-ins, a payout with a fee, a BRL → USDT conversion, a USDT deposit.
      await postOld(tx, a.id, 'sandbox', [
        [{ shared: settlement('sandbox') }, 'debit', 10_000n],
        [brl(a.party), 'credit', 10_000n],
      ]);
      await postOld(tx, a.id, 'sandbox', [
        [{ shared: settlement('sandbox') }, 'debit', 2_500n],
        [brl(a.party), 'credit', 2_400n],
        [{ shared: fees('sandbox', 'BRL') }, 'credit', 100n],
      ]);
      await postOld(tx, a.id, 'sandbox', [
        [brl(a.party), 'debit', 3_100n],
        [{ shared: settlement('sandbox') }, 'credit', 3_000n],
        [{ shared: fees('sandbox', 'BRL') }, 'credit', 100n],
      ]);
      await postOld(tx, a.id, 'sandbox', [
        [brl(a.party), 'debit', 5_000n],
        [{ shared: inventory('sandbox', 'BRL') }, 'credit', 5_000n],
        [{ shared: inventory('sandbox', 'USDT') }, 'debit', 9_000_000n],
        [usdt(a.party), 'credit', 9_000_000n],
      ]);
      await postOld(tx, a.id, 'sandbox', [
        [{ shared: custody('sandbox', 'USDT', 'polygon') }, 'debit', 1_234_567n],
        [usdt(a.party), 'credit', 1_234_567n],
      ]);
      // Beta, sandbox: in and out again (its settlement share is 0: nothing to move), a deposit on
      // another chain, a USDT fee. Live: one cash-in.
      await postOld(tx, b.id, 'sandbox', [
        [{ shared: settlement('sandbox') }, 'debit', 7_000n],
        [brl(b.party), 'credit', 7_000n],
      ]);
      await postOld(tx, b.id, 'sandbox', [
        [brl(b.party), 'debit', 7_000n],
        [{ shared: settlement('sandbox') }, 'credit', 7_000n],
      ]);
      await postOld(tx, b.id, 'sandbox', [
        [{ shared: custody('sandbox', 'USDT', 'tron') }, 'debit', 50_000_000n],
        [usdt(b.party), 'credit', 49_000_000n],
        [{ shared: fees('sandbox', 'USDT') }, 'credit', 1_000_000n],
      ]);
      await postOld(tx, b.id, 'live', [
        [{ shared: settlement('live') }, 'debit', 42n],
        [brl(b.party), 'credit', 42n],
      ]);
      // Gama, live only, with an amount near what a BR Code carries.
      await postOld(tx, c.id, 'live', [
        [{ shared: settlement('live') }, 'debit', 999_999_999_999n],
        [brl(c.party), 'credit', 999_999_999_999n],
      ]);
      // Delta posts nothing.
    });
    before = await snapshot(db);
    applied = await migrate(db);
  });
  afterAll(() => db?.close());

  it('the runner applies 0006 first, then only later migrations', () => {
    expect(applied[0]).toBe('0006_tenant_books.sql');
    expect(applied.every((name) => name >= '0006')).toBe(true);
  });

  it('leaves every shared account at 0 and closed, one row per workspace that posted to it (0022)', async () => {
    const { rows } = await db.query<{ key: string; closed: boolean; balance: bigint }>(
      `SELECT a.workspace_id || '|' || a.id AS key, b.closed, b.balance
         FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
        WHERE a.legacy_shared ORDER BY 1`,
    );
    const expected = new Set([...shares.values()].map((s) => `${s.workspaceId}|${sharedId(s.shared)}`));
    expect(rows.map((r) => r.key)).toEqual([...expected].sort());
    for (const row of rows) {
      expect(row.closed).toBe(true);
      expect(row.balance).toBe(0n);
    }
  });

  it('gives each workspace its share, in the account TypeScript names (ids derived the same way)', async () => {
    const moved = [...shares.values()].filter((s) => s.share !== 0n);
    expect(moved.length).toBeGreaterThan(5);
    for (const { workspaceId, shared, share } of shares.values()) {
      const ref = ownAccount(workspaceId, shared);
      expect(await balanceOf(db, ref), `${workspaceId} ${shared.kind}`).toBe(share);
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_accounts WHERE id = $1',
        [accountId(ref)],
      );
      // A zero share moves nothing: the account is created by its first posting, as any other.
      expect(rows[0]!.n).toBe(share === 0n ? 0 : 1);
    }
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ledger_accounts WHERE party_id IS NULL AND NOT legacy_shared',
    );
    expect(rows[0]!.n).toBe(moved.length);
    const delta = workspaces[3]!.id;
    const none = await db.query('SELECT 1 FROM ledger_journals WHERE workspace_id = $1', [delta]);
    expect(none.rows).toEqual([]);
  });

  it('only appends: the old journals and postings are unchanged, one reclassification journal per workspace and environment', async () => {
    const after = await snapshot(db);
    const journals = new Map(after.journals.map((j) => [j.id, j]));
    const postings = new Map(after.postings.map((p) => [p.id, p]));
    for (const j of before.journals) expect(journals.get(j.id)).toEqual(j);
    // 0022 gave the postings of the shared accounts (no workspace then) their journal's workspace.
    for (const p of before.postings) {
      const workspaceId = p.workspace_id ?? journals.get(p.journal_id as string)!.workspace_id;
      expect(postings.get(p.id)).toEqual({ ...p, workspace_id: workspaceId });
    }
    const oldIds = new Set(before.journals.map((j) => j.id));
    const added = after.journals.filter((j) => !oldIds.has(j.id));
    const pairs = new Set(
      [...shares.values()]
        .filter((s) => s.share !== 0n)
        .map((s) => `${s.workspaceId}|${s.shared.environment}`),
    );
    expect(added.map((j) => `${j.workspace_id}|${j.environment}`).sort()).toEqual([...pairs].sort());
    for (const j of added) expect(j.reference_type).toBe('reclassification');
    // Two postings per account moved; each journal's own-side postings name its workspace.
    const addedPostings = after.postings.filter((p) => !before.postings.some((b) => b.id === p.id));
    expect(addedPostings).toHaveLength(2 * [...shares.values()].filter((s) => s.share !== 0n).length);
    for (const p of addedPostings) {
      const journal = journals.get(p.journal_id)!;
      expect(p.workspace_id).toBe(journal.workspace_id);
    }
  });

  it('keeps the books: every journal and every currency sums to zero, every balance equals its postings', async () => {
    const unbalanced = await db.query(
      `SELECT journal_id, currency FROM ledger_postings GROUP BY journal_id, currency
        HAVING sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END) <> 0`,
    );
    expect(unbalanced.rows).toEqual([]);
    const totals = await db.query<{ environment: string; currency: string; total: string }>(
      `SELECT a.environment, a.currency, sum(b.balance)::text AS total
         FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id GROUP BY 1, 2`,
    );
    expect(totals.rows.length).toBeGreaterThan(2);
    for (const row of totals.rows) expect(row.total, `${row.environment} ${row.currency}`).toBe('0');
    const drift = await db.query(
      `SELECT b.account_id FROM ledger_balances b LEFT JOIN (SELECT account_id, sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END) AS s FROM ledger_postings GROUP BY account_id) p ON p.account_id = b.account_id WHERE b.balance <> coalesce(p.s, 0)`,
    );
    expect(drift.rows).toEqual([]);
  });

  it('the invariant queries of docs/operations.md return no row on the upgraded database', async () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    const section = doc.slice(doc.indexOf('**Ledger invariant**'), doc.indexOf('**Service-wide totals**'));
    const queries = [...section.matchAll(/`(SELECT [^`]+)`/g)].map((match) => match[1]!);
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const query of queries) expect((await db.query(query)).rows, query).toEqual([]);
  });

  it('service-wide totals are the sums of the workspaces’ shares', async () => {
    for (const environment of ['sandbox', 'live'] as const) {
      const expected = new Map<string, bigint>();
      for (const { shared, share } of shares.values()) {
        if (shared.environment !== environment || share === 0n) continue;
        const key = `${shared.kind}|${shared.currency}|${shared.network ?? ''}`;
        expected.set(key, (expected.get(key) ?? 0n) + share);
      }
      const totals = await systemTotals(db, environment);
      expect(new Map(totals.map((t) => [`${t.kind}|${t.currency}|${t.network ?? ''}`, t.balance]))).toEqual(
        expected,
      );
    }
    const live = await systemTotals(db, 'live');
    expect(live).toEqual([
      { kind: 'pix_settlement', currency: 'BRL', network: null, balance: -1_000_000_000_041n, accounts: 2 },
    ]);
  });

  it('new journals post to the migrated accounts; the shared ones refuse any new posting', async () => {
    const a = workspaces[0]!;
    const own = systemAccount.pixSettlement(a.id, 'sandbox');
    const start = await balanceOf(db, own);
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_accounts')).rows[0]!.n;
    const accounts = await count();
    await db.transaction((tx) =>
      postJournal(tx, {
        workspaceId: a.id,
        environment: 'sandbox',
        referenceType: 'test',
        referenceId: 'after-0006',
        postings: [
          { account: own, direction: 'debit', amount: 11n },
          { account: partyAccount(a.id, 'sandbox', a.party, 'BRL'), direction: 'credit', amount: 11n },
        ],
      }),
    );
    expect(await balanceOf(db, own)).toBe(start - 11n);
    expect(await count()).toBe(accounts);

    const shared = sharedId(settlement('sandbox'));
    await expect(
      db.transaction((tx) =>
        tx.query(
          'SELECT outcome FROM ledger_post($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[], $9::text[], $10::bigint[])',
          [
            newId(),
            a.id,
            'sandbox',
            'test',
            'shared',
            new Date(),
            [newId(), newId()],
            [shared, accountId(partyAccount(a.id, 'sandbox', a.party, 'BRL'))],
            ['debit', 'credit'],
            [1n, 1n],
          ],
        ),
      ),
    ).rejects.toMatchObject({ code: '23514' });
    // Nor a journal that nets to zero on it: a closed account takes no posting at all.
    await expect(
      db.transaction((tx) =>
        tx.query(
          'SELECT outcome FROM ledger_post($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[], $9::text[], $10::bigint[])',
          [
            newId(),
            a.id,
            'sandbox',
            'test',
            'net-zero',
            new Date(),
            [newId(), newId()],
            [shared, shared],
            ['debit', 'credit'],
            [5n, 5n],
          ],
        ),
      ),
    ).rejects.toMatchObject({ code: '23514' });
    const { rows } = await db.query<{ balance: bigint }>(
      'SELECT balance FROM ledger_balances WHERE workspace_id = $2 AND account_id = $1',
      [shared, a.id],
    );
    expect(rows[0]!.balance).toBe(0n);
    // Nor can an account without a workspace be created any more.
    await expect(
      db.query(
        `INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind, network)
         VALUES ($1, NULL, 'sandbox', NULL, 'BRL', 'fee_revenue', 'x')`,
        [newId()],
      ),
    ).rejects.toMatchObject({ code: '23502' });
  });

  it('derives the same account id in SQL as in TypeScript, for any workspace and system account', async () => {
    const refs = fc.record({
      workspaceId: fc.uuid(),
      environment: fc.constantFrom('sandbox' as const, 'live' as const),
      kind: fc.constantFrom(...SYSTEM_KINDS),
      currency: fc.constantFrom(...CURRENCY_CODES),
      network: fc.option(fc.constantFrom('polygon', 'tron', 'ethereum', 'solana', 'base'), { nil: null }),
    });
    const sample = fc.sample(refs, 200).map((r) => ({ type: 'system' as const, ...r }));
    // Upper-case workspace ids too: the key lower-cases them, so must the SQL.
    sample.push({ ...sample[0]!, workspaceId: sample[0]!.workspaceId.toUpperCase() });
    const { rows } = await db.query<{ id: string }>(
      `SELECT ledger_system_account_id(w, e, k, c, n)::text AS id
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u (w, e, k, c, n, i)
        ORDER BY i`,
      [
        sample.map((r) => r.workspaceId),
        sample.map((r) => r.environment),
        sample.map((r) => r.kind),
        sample.map((r) => r.currency),
        sample.map((r) => r.network),
      ],
    );
    expect(rows.map((r) => r.id)).toEqual(sample.map((r) => accountId(r)));
  });
});
