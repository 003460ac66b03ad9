/**
 * ledger_post against a model of what it answers: for any journal over a few funded party accounts and
 * the workspace's settlement account, the outcome is 'insufficient' exactly when some account's net
 * debit exceeds its balance, the account reported is the lowest id among those, and then no balance
 * has moved; otherwise every balance moved by its net. One UPDATE moves every balance of a journal, so
 * the accounts it had already moved when one fell short must be put back.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../test/ledger/helpers.ts';
import { createTestDatabase } from '../../test/support/database.ts';
import type { Database } from '../db/types.ts';
import { newId } from '../platform/ids.ts';
import { type AccountRef, accountId, balanceOf, partyAccount, systemAccount } from './accounts.ts';
import { transfer } from './ledger.ts';

const env = 'sandbox' as const;
let db: Database;
let workspaceId: string;
let accounts: AccountRef[];

beforeAll(async () => {
  db = await createTestDatabase();
  const seeded = await seedWorkspace(db, 3);
  workspaceId = seeded.workspaceId;
  accounts = seeded.parties.map((party) => partyAccount(workspaceId, env, party, 'BRL'));
  for (const account of accounts) {
    await db.transaction((tx) =>
      transfer(tx, {
        workspaceId,
        environment: env,
        referenceType: 'test',
        referenceId: 'funding',
        from: systemAccount.pixSettlement(workspaceId, env),
        to: account,
        amount: 1_000n,
      }),
    );
  }
});
afterAll(() => db.close());

const posting = fc.record({
  account: fc.integer({ min: 0, max: 3 }),
  direction: fc.constantFrom('debit', 'credit'),
  amount: fc.bigInt({ min: 1n, max: 1_500n }),
});

describe('ledger_post', () => {
  it('refuses the lowest account id whose net debit its balance cannot cover, and moves nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 5 }), async (drawn) => {
        const settlement = systemAccount.pixSettlement(workspaceId, env);
        const refs = [...accounts, settlement];
        const before = await Promise.all(refs.map((ref) => balanceOf(db, ref)));
        // The settlement account takes the other side of the party postings: the journal balances.
        const net = drawn.reduce((sum, p) => sum + (p.direction === 'credit' ? p.amount : -p.amount), 0n);
        const postings = [
          ...drawn.map((p) => ({ ref: accounts[p.account]!, direction: p.direction, amount: p.amount })),
          ...(net === 0n
            ? []
            : [{ ref: settlement, direction: net > 0n ? 'debit' : 'credit', amount: net > 0n ? net : -net }]),
        ];
        const nets = new Map<string, bigint>();
        for (const p of postings) {
          const id = accountId(p.ref);
          nets.set(id, (nets.get(id) ?? 0n) + (p.direction === 'credit' ? p.amount : -p.amount));
        }
        const short = refs
          .map((ref, i) => ({ id: accountId(ref), balance: before[i]!, party: ref !== settlement }))
          .filter((a) => a.party && (nets.get(a.id) ?? 0n) < 0n && a.balance < -(nets.get(a.id) ?? 0n))
          .map((a) => a.id)
          .sort();

        const { rows } = await db.query<{ outcome: string; failed_account: string | null }>(
          'SELECT outcome, failed_account FROM ledger_post($1, $2, $3, $4, $5, now(), $6::uuid[], $7::uuid[], $8::text[], $9::bigint[])',
          [
            newId(),
            workspaceId,
            env,
            'test',
            'model',
            postings.map(() => newId()),
            postings.map((p) => accountId(p.ref)),
            postings.map((p) => p.direction),
            postings.map((p) => p.amount.toString()),
          ],
        );
        const after = await Promise.all(refs.map((ref) => balanceOf(db, ref)));
        if (short.length > 0) {
          expect(rows[0]).toEqual({ outcome: 'insufficient', failed_account: short[0] });
          expect(after).toEqual(before);
        } else {
          expect(rows[0]).toEqual({ outcome: 'ok', failed_account: null });
          expect(after).toEqual(refs.map((ref, i) => before[i]! + (nets.get(accountId(ref)) ?? 0n)));
        }
      }),
      { numRuns: 60 },
    );
  });
});
