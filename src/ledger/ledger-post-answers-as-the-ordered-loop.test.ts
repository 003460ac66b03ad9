/**
 * ledger_post (migration 0037: one read finds what is wrong, one UPDATE moves every balance) against the
 * function it replaced (migration 0022: an ordered loop of checked UPDATEs, read from that migration under
 * another name). For any balances, closed accounts, missing accounts and journal, both answer the same:
 * the same outcome and failed account, or the same error (of several closed accounts, the one the
 * error names was never set), and the same balances and postings after.
 * Balances near the bigint limits make the loop stop at an overflow or a short account, whichever
 * comes first by account id.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../test/ledger/helpers.ts';
import { createTestDatabase } from '../../test/support/database.ts';
import type { Database } from '../db/types.ts';
import { newId } from '../platform/ids.ts';
import { type AccountRef, accountId, ensureAccounts, partyAccount, systemAccount } from './accounts.ts';

const env = 'sandbox' as const;
const MAX = 9_223_372_036_854_775_807n;
const MISSING = '01900000-0000-7000-8000-000000000001';
let db: Database;
let workspaceId: string;
let refs: AccountRef[];

/** ledger_post as migration 0022 defined it, read from that migration, under another name. */
function orderedLoop(): string {
  const migration = readFileSync(
    path.resolve(import.meta.dirname, '../db/migrations/0022_tenant_keys.sql'),
    'utf8',
  );
  const start = migration.indexOf('CREATE OR REPLACE FUNCTION ledger_post(');
  const end = migration.indexOf('$$;', start) + 3;
  if (start < 0 || end < 3) throw new Error('ledger_post not found in migration 0022');
  return migration.slice(start, end).replace('FUNCTION ledger_post(', 'FUNCTION ledger_post_ordered_loop(');
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(orderedLoop());
  const seeded = await seedWorkspace(db, 2);
  workspaceId = seeded.workspaceId;
  refs = [
    ...seeded.parties.map((party) => partyAccount(workspaceId, env, party, 'BRL')),
    systemAccount.pixSettlement(workspaceId, env),
    systemAccount.feeRevenue(workspaceId, env, 'BRL'),
  ];
  await db.transaction((tx) => ensureAccounts(tx, refs));
});
afterAll(() => db.close());

interface State {
  balances: bigint[];
  closed: boolean[];
}
interface Journal {
  accounts: string[];
  directions: string[];
  amounts: bigint[];
}

/** What `fn` answers from `state` and what it leaves, all rolled back after. */
async function answer(fn: 'ledger_post' | 'ledger_post_ordered_loop', state: State, journal: Journal) {
  let seen: unknown;
  await db
    .transaction(async (tx) => {
      for (const [i, ref] of refs.entries())
        await tx.query(
          'UPDATE ledger_balances SET balance = $3, closed = $4 WHERE workspace_id = $1 AND account_id = $2',
          [workspaceId, accountId(ref), state.balances[i]!.toString(), state.closed[i]],
        );
      const outcome = await tx
        .query(
          `SELECT outcome, failed_account FROM ${fn}($1, $2, $3, 'test', 'diff', now(), $4::uuid[], $5::uuid[], $6::text[], $7::bigint[])`,
          [
            newId(),
            workspaceId,
            env,
            journal.accounts.map(() => newId()),
            journal.accounts,
            journal.directions,
            journal.amounts.map(String),
          ],
        )
        .then(
          ({ rows }) => rows[0],
          // Which of several closed accounts the error names was never set: the loop's read named
          // whichever its join met first.
          (error: { code?: string; message?: string }) => ({
            code: error.code,
            message: error.message?.replace(/^account \S+ is closed$/, 'account … is closed'),
          }),
        );
      if ('code' in (outcome as object)) {
        seen = { outcome };
        throw new Error('rolled back');
      }
      const balances = await tx.query<{ balance: bigint }>(
        'SELECT balance FROM ledger_balances WHERE workspace_id = $1 AND account_id = ANY ($2::uuid[]) ORDER BY account_id',
        [workspaceId, refs.map(accountId)],
      );
      const postings = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_postings WHERE workspace_id = $1',
        [workspaceId],
      );
      seen = { outcome, balances: balances.rows.map((row) => row.balance), postings: postings.rows[0]!.n };
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  return seen;
}

const balance = fc.oneof(fc.bigInt({ min: 0n, max: 3_000n }), fc.constantFrom(0n, 5n, MAX - 10n, -MAX + 10n));
const posting = fc.record({
  account: fc.integer({ min: 0, max: 5 }), // 5: an account never created
  direction: fc.constantFrom('debit', 'credit'),
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 3_000n }), fc.constant(MAX - 1n)),
});

describe('ledger_post', () => {
  it('answers as the ordered loop did, and leaves the same balances', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(balance, { minLength: 5, maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.array(posting, { minLength: 2, maxLength: 6 }),
        async (drawn, closing, postings) => {
          // Party accounts (the first three) never hold less than zero; only an empty account is closed.
          const balances = drawn.map((value, i) => (i < 3 && value < 0n ? -value : value));
          const state = { balances, closed: closing.map((close, i) => close && balances[i] === 0n) };
          // A net of exactly -2^63 the loop refused or not depending on its plan; it is refused now.
          const nets = new Map<number, bigint>();
          for (const p of postings)
            nets.set(
              p.account,
              (nets.get(p.account) ?? 0n) + (p.direction === 'credit' ? p.amount : -p.amount),
            );
          fc.pre(![...nets.values()].includes(-MAX - 1n));
          const journal = {
            accounts: postings.map((p) => (p.account < refs.length ? accountId(refs[p.account]!) : MISSING)),
            directions: postings.map((p) => p.direction),
            amounts: postings.map((p) => p.amount),
          };
          const loop = await answer('ledger_post_ordered_loop', state, journal);
          expect(loop).toBeDefined();
          expect(await answer('ledger_post', state, journal)).toEqual(loop);
        },
      ),
      { numRuns: 300 },
    );
  });
});
