import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerBatcher } from '../../bench/ledger-batcher.ts';
import type { Database } from '../../src/db/types.ts';
import { balanceOf, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { InsufficientBalanceError, InvalidJournalError, type JournalInput } from '../../src/ledger/ledger.ts';
import { createTestDatabase } from '../support/database.ts';
import { seedWorkspace } from './helpers.ts';

const env = 'sandbox' as const;
let db: Database;
let workspaceId: string;
let parties: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  ({ workspaceId, parties } = await seedWorkspace(db, 2));
});
afterAll(() => db.close());

const account = (i: number) => partyAccount(workspaceId, env, parties[i]!, 'BRL');
const journal = (
  from: ReturnType<typeof account> | ReturnType<typeof systemAccount.pixSettlement>,
  to: ReturnType<typeof account>,
  amount: bigint,
): JournalInput => ({
  workspaceId,
  environment: env,
  referenceType: 'test',
  referenceId: 'batch',
  postings: [
    { account: from, direction: 'debit', amount },
    { account: to, direction: 'credit', amount },
  ],
});

/** Transactions that wrote the journals of this workspace: xmin is the id of the inserting transaction. */
const transactions = async () =>
  (
    await db.query<{ n: bigint }>(
      'SELECT count(DISTINCT xmin::text)::bigint AS n FROM ledger_journals WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.n;

describe('LedgerBatcher', () => {
  it('commits concurrent journals together, each resolved with its own journal', async () => {
    const batcher = new LedgerBatcher(db);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        batcher.post(journal(systemAccount.pixSettlement(workspaceId, env), account(i % 3), BigInt(i + 1))),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(50);
    const total =
      (await balanceOf(db, account(0))) +
      (await balanceOf(db, account(1))) +
      (await balanceOf(db, account(2)));
    expect(total).toBe(1275n);
    // The first call commits alone; the 49 that queued behind it share the next transaction(s).
    expect(await transactions()).toBeLessThan(5n);
  });

  it('fails a refused journal alone and commits the rest of its batch', async () => {
    const batcher = new LedgerBatcher(db);
    const before = await balanceOf(db, account(0));
    const outcomes = await Promise.allSettled([
      batcher.post(journal(systemAccount.pixSettlement(workspaceId, env), account(1), 1n)),
      batcher.post(journal(account(0), account(1), before + 1n)),
      batcher.post(journal(account(0), account(2), 1n)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await balanceOf(db, account(0))).toBe(before - 1n);
  });

  it('rejects an invalid journal before it reaches the database', async () => {
    const batcher = new LedgerBatcher(db);
    const bad = journal(account(0), account(1), 1n);
    await expect(batcher.post({ ...bad, postings: bad.postings.slice(0, 1) })).rejects.toBeInstanceOf(
      InvalidJournalError,
    );
  });

  it('never overdraws: 200 debits of 1 against a balance of 100, exactly 100 succeed', async () => {
    const batcher = new LedgerBatcher(db, { maxBatch: 16 });
    const payer = partyAccount(workspaceId, env, parties[0]!, 'USDT');
    await batcher.post({
      ...journal(systemAccount.cryptoCustody(workspaceId, env, 'tron', 'USDT'), account(0), 1n),
      postings: [
        {
          account: systemAccount.cryptoCustody(workspaceId, env, 'tron', 'USDT'),
          direction: 'debit',
          amount: 100n,
        },
        { account: payer, direction: 'credit', amount: 100n },
      ],
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        batcher.post({
          ...journal(account(0), account(1), 1n),
          postings: [
            { account: payer, direction: 'debit', amount: 1n },
            { account: systemAccount.feeRevenue(workspaceId, env, 'USDT'), direction: 'credit', amount: 1n },
          ],
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(100);
    expect(await balanceOf(db, payer)).toBe(0n);
  });
});
