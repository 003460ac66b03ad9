/**
 * A balance locked to be read before a post (a MED return's debit, a debt recovery) takes the
 * workspace's ledger gate first, as ledger_post does: a credit to the same party then waits for the
 * return instead of holding the gate while the return holds the balance (40P01). Only real
 * PostgreSQL has concurrent transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { balanceOf, lockBalance, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { type JournalInput, postJournal } from '../../src/ledger/ledger.ts';
import { createTestDatabase, onRealPostgres } from '../support/database.ts';
import { seedWorkspace, someoneWaitsOnALock } from './helpers.ts';

const env = 'sandbox' as const;
let db: Database;
let workspaceId: string;
let partyId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const seeded = await seedWorkspace(db);
  workspaceId = seeded.workspaceId;
  partyId = seeded.parties[0]!;
});
afterAll(() => db.close());

const party = () => partyAccount(workspaceId, env, partyId, 'BRL');
const settlement = () => systemAccount.pixSettlement(workspaceId, env);
const credit = (amount: bigint): JournalInput => ({
  workspaceId,
  environment: env,
  referenceType: 'test',
  referenceId: 'gate',
  postings: [
    { account: settlement(), direction: 'debit', amount },
    { account: party(), direction: 'credit', amount },
  ],
});
const debit = (amount: bigint): JournalInput => ({
  ...credit(amount),
  postings: [
    { account: party(), direction: 'debit', amount },
    { account: settlement(), direction: 'credit', amount },
  ],
});

describe.runIf(onRealPostgres())('a balance locked before a post', () => {
  it('takes the ledger gate first, so a credit to the same party waits instead of deadlocking', async () => {
    await db.transaction((tx) => postJournal(tx, credit(1000n)));
    let creditDone: Promise<unknown> | undefined;
    const returned = db.transaction(
      async (tx) => {
        const balance = await lockBalance(tx, party());
        creditDone = db.transaction((other) => postJournal(other, credit(500n)), { retries: 0 });
        await someoneWaitsOnALock(db);
        await postJournal(tx, debit(balance));
      },
      { retries: 0 },
    );
    const results = await Promise.allSettled([
      returned,
      (async () => {
        await returned.catch(() => undefined);
        return creditDone;
      })(),
    ]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
    expect(await balanceOf(db, party())).toBe(500n);
  });
});
