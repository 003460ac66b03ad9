/**
 * Property test of the ledger: random sequences of credits, debits, kind moves, transfers and failures
 * (refused debits, unbalanced journals, transactions that crash after posting, refused debits the caller
 * catches and commits past) across several parties and currencies. After every step:
 * every journal sums to zero per currency; every balance equals the sum of its postings; no party
 * balance is negative; the party balances and the journal count equal a model that only counts the
 * operations that succeeded (so a failed operation left no trace).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../src/db/types.ts';
import {
  type AccountRef,
  accountKey,
  BALANCE_KINDS,
  type BalanceKind,
  partyAccount,
  systemAccount,
} from '../../src/ledger/accounts.ts';
import { CURRENCY_CODES, type Currency } from '../../src/ledger/currency.ts';
import {
  InsufficientBalanceError,
  InvalidJournalError,
  type PostingInput,
  postJournal,
} from '../../src/ledger/ledger.ts';
import { createTestDatabase } from '../support/database.ts';
import { seedWorkspace } from '../support/world.ts';

const PARTIES = 3;
const env = 'sandbox' as const;

type Op =
  | { type: 'credit'; party: number; currency: Currency; amount: bigint }
  | { type: 'debit'; party: number; currency: Currency; kind: BalanceKind; amount: bigint }
  | { type: 'move'; party: number; currency: Currency; from: BalanceKind; to: BalanceKind; amount: bigint }
  | { type: 'transfer'; from: number; to: number; currency: Currency; amount: bigint };
type Step =
  | { mode: 'commit' | 'crash' | 'catch'; op: Op }
  | { mode: 'unbalanced'; party: number; currency: Currency; amount: bigint };

const party = fc.integer({ min: 0, max: PARTIES - 1 });
const currency = fc.constantFrom(...CURRENCY_CODES);
const kind = fc.constantFrom(...BALANCE_KINDS);
const amount = fc.bigInt({ min: 1n, max: 1000n });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('credit' as const), party, currency, amount }),
  fc.record({ type: fc.constant('debit' as const), party, currency, kind, amount }),
  fc
    .record({ type: fc.constant('move' as const), party, currency, from: kind, to: kind, amount })
    .filter((m) => m.from !== m.to),
  fc.record({ type: fc.constant('transfer' as const), from: party, to: party, currency, amount }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ mode: fc.constant('commit' as const), op }) },
  { weight: 1, arbitrary: fc.record({ mode: fc.constant('crash' as const), op }) },
  { weight: 1, arbitrary: fc.record({ mode: fc.constant('catch' as const), op }) },
  { weight: 1, arbitrary: fc.record({ mode: fc.constant('unbalanced' as const), party, currency, amount }) },
);

const source = (workspaceId: string, c: Currency): AccountRef =>
  c === 'BRL'
    ? systemAccount.pixSettlement(workspaceId, env)
    : systemAccount.cryptoCustody(workspaceId, env, 'polygon', c);

class Crash extends Error {}

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

async function checkInvariants(workspaceId: string, model: Map<string, bigint>, journals: number) {
  const unbalanced = await db.query(
    `SELECT journal_id, currency FROM ledger_postings GROUP BY journal_id, currency
      HAVING sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END) <> 0`,
  );
  expect(unbalanced.rows).toEqual([]);
  const drift = await db.query(
    `SELECT b.account_id FROM ledger_balances b
       LEFT JOIN (SELECT account_id, sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END) AS total
                    FROM ledger_postings GROUP BY account_id) p ON p.account_id = b.account_id
      WHERE b.balance <> coalesce(p.total, 0)`,
  );
  expect(drift.rows).toEqual([]);
  const negative = await db.query(
    'SELECT account_id FROM ledger_balances WHERE non_negative AND balance < 0',
  );
  expect(negative.rows).toEqual([]);
  const { rows } = await db.query<{
    party_id: string;
    currency: Currency;
    kind: BalanceKind;
    balance: bigint;
  }>(
    `SELECT a.party_id, a.currency, a.kind, b.balance FROM ledger_accounts a JOIN ledger_balances b ON b.account_id = a.id
      WHERE a.workspace_id = $1 AND a.party_id IS NOT NULL AND b.balance <> 0`,
    [workspaceId],
  );
  const actual = new Map(
    rows.map((r) => [accountKey(partyAccount(workspaceId, env, r.party_id, r.currency, r.kind)), r.balance]),
  );
  const expected = new Map([...model].filter(([, v]) => v !== 0n));
  expect(actual).toEqual(expected);
  const count = await db.query<{ n: bigint }>(
    'SELECT count(*)::bigint AS n FROM ledger_journals WHERE workspace_id = $1',
    [workspaceId],
  );
  expect(count.rows[0]!.n).toBe(BigInt(journals));
}

describe('ledger invariants', () => {
  it('hold after every step of random operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const { workspaceId, parties } = await seedWorkspace(db, PARTIES - 1);
        const account = (p: number, c: Currency, k: BalanceKind = 'available') =>
          partyAccount(workspaceId, env, parties[p]!, c, k);
        const model = new Map<string, bigint>();
        const balance = (ref: AccountRef) => model.get(accountKey(ref)) ?? 0n;
        let journals = 0;

        const postingsOf = (o: Op): PostingInput[] => {
          switch (o.type) {
            case 'credit':
              return [
                { account: source(workspaceId, o.currency), direction: 'debit', amount: o.amount },
                { account: account(o.party, o.currency), direction: 'credit', amount: o.amount },
              ];
            case 'debit':
              return [
                { account: account(o.party, o.currency, o.kind), direction: 'debit', amount: o.amount },
                {
                  account: systemAccount.feeRevenue(workspaceId, env, o.currency),
                  direction: 'credit',
                  amount: o.amount,
                },
              ];
            case 'move':
              return [
                { account: account(o.party, o.currency, o.from), direction: 'debit', amount: o.amount },
                { account: account(o.party, o.currency, o.to), direction: 'credit', amount: o.amount },
              ];
            case 'transfer':
              return [
                { account: account(o.from, o.currency), direction: 'debit', amount: o.amount },
                { account: account(o.to, o.currency), direction: 'credit', amount: o.amount },
              ];
          }
        };
        /** The model's answer: would every party debit of these postings be covered? */
        const covered = (postings: PostingInput[]) => {
          const net = new Map<string, bigint>();
          for (const p of postings) {
            if (p.account.type !== 'party') continue;
            const key = accountKey(p.account);
            net.set(
              key,
              (net.get(key) ?? balance(p.account)) + (p.direction === 'credit' ? p.amount : -p.amount),
            );
          }
          return [...net.values()].every((v) => v >= 0n);
        };
        const apply = (postings: PostingInput[]) => {
          for (const p of postings) {
            if (p.account.type !== 'party') continue;
            model.set(
              accountKey(p.account),
              balance(p.account) + (p.direction === 'credit' ? p.amount : -p.amount),
            );
          }
          journals++;
        };
        const post = (tx: Tx, postings: PostingInput[]) =>
          postJournal(tx, {
            workspaceId,
            environment: env,
            referenceType: 'test',
            referenceId: 'x',
            postings,
          });

        for (const s of steps) {
          if (s.mode === 'unbalanced') {
            const error = await db
              .transaction((tx) =>
                post(tx, [
                  { account: source(workspaceId, s.currency), direction: 'debit', amount: s.amount },
                  { account: account(s.party, s.currency), direction: 'credit', amount: s.amount + 1n },
                ]),
              )
              .catch((e: unknown) => e);
            expect(error).toBeInstanceOf(InvalidJournalError);
          } else {
            const postings = postingsOf(s.op);
            const ok = covered(postings);
            if (s.mode === 'commit') {
              const result = await db.transaction((tx) => post(tx, postings)).catch((e: unknown) => e);
              if (ok) {
                expect(result).not.toBeInstanceOf(Error);
                apply(postings);
              } else expect(result).toBeInstanceOf(InsufficientBalanceError);
            } else if (s.mode === 'crash') {
              // The operation runs, then the transaction dies: nothing of it may remain.
              const result = await db
                .transaction(async (tx) => {
                  await post(tx, postings);
                  throw new Crash();
                })
                .catch((e: unknown) => e);
              expect(result).toBeInstanceOf(ok ? Crash : InsufficientBalanceError);
            } else {
              // The caller catches a refusal and commits its transaction anyway.
              await db.transaction(async (tx) => {
                const result = await post(tx, postings).catch((e: unknown) => e);
                if (ok) expect(result).not.toBeInstanceOf(Error);
                else expect(result).toBeInstanceOf(InsufficientBalanceError);
              });
              if (ok) apply(postings);
            }
          }
          await checkInvariants(workspaceId, model, journals);
        }
      }),
      { numRuns: 50 },
    );
  });
});
