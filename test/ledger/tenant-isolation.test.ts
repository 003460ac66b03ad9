/**
 * Tenant-local books on a real PostgreSQL server (PGlite runs one transaction at a time, so it proves
 * nothing here): journals of two workspaces posted at once touch disjoint rows. Every posting's account
 * belongs to its journal's workspace, no account is used by both, and a journal of one workspace never
 * waits on a row lock held by an open transaction of the other (while a second journal of the same
 * workspace does, which shows the probe would catch a shared row).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../src/db/types.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { type PostedJournal, postJournal } from '../../src/ledger/ledger.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';
import { seedWorkspace } from '../support/world.ts';

const env = 'sandbox' as const;

describe.skipIf(!onRealPostgres())('tenant-local books under concurrency (PostgreSQL)', () => {
  let db: Database;
  let a: { workspaceId: string; parties: string[] };
  let b: { workspaceId: string; parties: string[] };

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await seedWorkspace(db, 2);
    b = await seedWorkspace(db, 2);
  });
  afterAll(() => db.close());

  /** A cash-in with a fee, the shape of a paid PIX charge: settlement → party net + fee revenue. */
  const cashIn = (tx: Tx, ws: typeof a, i: number): Promise<PostedJournal> =>
    postJournal(tx, {
      workspaceId: ws.workspaceId,
      environment: env,
      referenceType: 'test',
      referenceId: `isolation-${i}`,
      postings: [
        { account: systemAccount.pixSettlement(ws.workspaceId, env), direction: 'debit', amount: 100n },
        {
          account: partyAccount(ws.workspaceId, env, ws.parties[i % ws.parties.length]!, 'BRL'),
          direction: 'credit',
          amount: 99n,
        },
        { account: systemAccount.feeRevenue(ws.workspaceId, env, 'BRL'), direction: 'credit', amount: 1n },
      ],
    });

  it('journals of two workspaces posted at once only use their own workspace’s accounts', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        db.transaction((tx) => cashIn(tx, i % 2 ? a : b, i), { retries: 0 }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const crossing = await db.query(
      `SELECT p.id FROM ledger_postings p
         JOIN ledger_journals j ON j.id = p.journal_id
         JOIN ledger_accounts a ON a.id = p.account_id
        WHERE j.workspace_id IN ($1, $2)
          AND (a.workspace_id IS DISTINCT FROM j.workspace_id OR p.workspace_id IS DISTINCT FROM j.workspace_id)`,
      [a.workspaceId, b.workspaceId],
    );
    expect(crossing.rows).toEqual([]);
    const shared = await db.query(
      `SELECT p.account_id FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
        WHERE j.workspace_id IN ($1, $2)
        GROUP BY p.account_id HAVING count(DISTINCT j.workspace_id) > 1`,
      [a.workspaceId, b.workspaceId],
    );
    expect(shared.rows).toEqual([]);
    const journals = await db.query<{ workspace_id: string; n: number }>(
      `SELECT workspace_id, count(*)::int AS n FROM ledger_journals WHERE workspace_id IN ($1, $2)
        GROUP BY workspace_id`,
      [a.workspaceId, b.workspaceId],
    );
    expect(journals.rows.map((r) => r.n)).toEqual([100, 100]);
  });

  it('a journal of one workspace never waits on a row locked by another workspace’s open transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let posted!: () => void;
    const isPosted = new Promise<void>((resolve) => {
      posted = resolve;
    });
    // Workspace A posts and keeps its transaction open: its balance rows stay locked until it commits.
    const holder = db.transaction(
      async (tx) => {
        await cashIn(tx, a, 0);
        posted();
        await held;
      },
      { retries: 0 },
    );
    await isPosted;
    try {
      // B's journal commits while A's transaction holds its rows: a shared row would make it time out.
      await db.transaction(
        async (tx) => {
          await tx.query(`SET LOCAL lock_timeout = '2s'`);
          await cashIn(tx, b, 1);
        },
        { retries: 0 },
      );
      // The control: a second journal of A needs A's settlement row and has to wait for it.
      const blocked = await db
        .transaction(
          async (tx) => {
            await tx.query(`SET LOCAL lock_timeout = '300ms'`);
            await cashIn(tx, a, 1);
          },
          { retries: 0 },
        )
        .catch((e: unknown) => e);
      expect(blocked).toMatchObject({ code: '55P03' });
    } finally {
      release();
      await holder;
    }
  });
});
