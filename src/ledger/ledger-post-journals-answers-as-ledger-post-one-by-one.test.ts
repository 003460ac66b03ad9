/**
 * ledger_post_journals (migrations 0038 and 0040: a batch's journals in one call) against ledger_post called
 * for each journal in turn. For any balances, closed and missing accounts and journals over two
 * workspaces: it posts them all exactly when every ledger_post call would answer 'ok', and then leaves
 * the same balances, journals and postings; otherwise it errs (and its caller posts them one by one).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../test/ledger/helpers.ts';
import { createTestDatabase } from '../../test/support/database.ts';
import type { Database, Tx } from '../db/types.ts';
import { newId } from '../platform/ids.ts';
import { type AccountRef, accountId, ensureAccounts, partyAccount, systemAccount } from './accounts.ts';
import { type Direction, journalsOfABatch } from './journals-of-a-batch.ts';

const env = 'sandbox' as const;
const MAX = 9_223_372_036_854_775_807n;
const MISSING = '01900000-0000-7000-8000-000000000001';
/** Accounts a workspace: two parties', two system ones; index 4 is an account never created. */
const PER_WORKSPACE = 4;
let db: Database;
let workspaces: string[];
let refs: AccountRef[];

beforeAll(async () => {
  db = await createTestDatabase();
  workspaces = [];
  refs = [];
  for (let w = 0; w < 2; w++) {
    const seeded = await seedWorkspace(db, 1);
    workspaces.push(seeded.workspaceId);
    refs.push(
      ...seeded.parties.map((party) => partyAccount(seeded.workspaceId, env, party, 'BRL')),
      systemAccount.pixSettlement(seeded.workspaceId, env),
      systemAccount.feeRevenue(seeded.workspaceId, env, 'BRL'),
    );
  }
  await db.transaction((tx) => ensureAccounts(tx, refs));
});
afterAll(() => db.close());

interface Journal {
  id: string;
  workspace: number;
  postedAt: string;
  postings: { id: string; account: string; direction: string; amount: bigint }[];
}

async function setState(tx: Tx, balances: bigint[], closed: boolean[]) {
  for (const [i, ref] of refs.entries())
    await tx.query(
      'UPDATE ledger_balances SET balance = $3, closed = $4 WHERE workspace_id = $1 AND account_id = $2',
      [ref.workspaceId, accountId(ref), balances[i]!.toString(), closed[i]],
    );
}

/** Balances, journals and postings of both workspaces. */
async function books(tx: Tx) {
  const balances = await tx.query(
    'SELECT account_id, balance, closed FROM ledger_balances WHERE workspace_id = ANY ($1::uuid[]) ORDER BY account_id',
    [workspaces],
  );
  const journals = await tx.query(
    `SELECT id, workspace_id, environment, reference_type, reference_id, posted_at FROM ledger_journals
      WHERE workspace_id = ANY ($1::uuid[]) ORDER BY id`,
    [workspaces],
  );
  const postings = await tx.query(
    `SELECT id, journal_id, account_id, workspace_id, environment, party_id, currency, kind, direction, amount, posted_at
       FROM ledger_postings WHERE workspace_id = ANY ($1::uuid[]) ORDER BY id`,
    [workspaces],
  );
  return { balances: balances.rows, journals: journals.rows, postings: postings.rows };
}

/** Each journal with ledger_post, in order: the books after, or undefined if any answered other than 'ok'. */
function oneByOne(journals: Journal[]) {
  return async (tx: Tx) => {
    for (const journal of journals) {
      const outcome = await tx
        .query<{ outcome: string }>(
          `SELECT outcome FROM ledger_post($1, $2, $3, 'test', $9, $4, $5::uuid[], $6::uuid[], $7::text[], $8::bigint[])`,
          [
            journal.id,
            workspaces[journal.workspace],
            env,
            journal.postedAt,
            journal.postings.map((p) => p.id),
            journal.postings.map((p) => p.account),
            journal.postings.map((p) => p.direction),
            journal.postings.map((p) => p.amount.toString()),
            journal.id,
          ],
        )
        .then(
          ({ rows }) => rows[0]!.outcome,
          () => 'error',
        );
      if (outcome !== 'ok') return undefined;
    }
    return books(tx);
  };
}

/**
 * The journals in one ledger_post_journals call, made as a batch makes it (journals-of-a-batch.ts):
 * the books after, or undefined if it erred.
 */
function together(journals: Journal[]) {
  return async (tx: Tx) => {
    const { text, params } = journalsOfABatch.statement(
      journals.map((journal) => ({
        id: journal.id,
        workspaceId: workspaces[journal.workspace]!,
        environment: env,
        referenceType: 'test',
        referenceId: journal.id,
        postedAt: new Date(journal.postedAt),
        postings: journal.postings.map((p) => ({
          id: p.id,
          accountId: p.account,
          direction: p.direction as Direction,
          amount: p.amount,
        })),
      })),
    );
    const posted = await tx.query(text, params).then(
      () => true,
      () => false,
    );
    return posted ? books(tx) : undefined;
  };
}

/** What `post` leaves from the given state, all rolled back after. */
async function booksAfter(balances: bigint[], closed: boolean[], post: (tx: Tx) => Promise<unknown>) {
  let seen: unknown = 'not run';
  await db
    .transaction(async (tx) => {
      await setState(tx, balances, closed);
      seen = await post(tx);
      throw new Error('rolled back');
    })
    .catch(() => undefined);
  return seen;
}

const balance = fc.oneof(fc.bigInt({ min: 0n, max: 3_000n }), fc.constantFrom(0n, 5n, MAX - 10n, -MAX + 10n));
/** An account by index: the journal's workspace's (0–3), one never made (4), the other workspace's (5–8). */
const account = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: PER_WORKSPACE - 1 }), weight: 24 },
  { arbitrary: fc.constant(PER_WORKSPACE), weight: 1 },
  { arbitrary: fc.integer({ min: PER_WORKSPACE + 1, max: 2 * PER_WORKSPACE }), weight: 1 },
);

function accountOf(workspace: number, index: number): string {
  if (index < PER_WORKSPACE) return accountId(refs[workspace * PER_WORKSPACE + index]!);
  if (index === PER_WORKSPACE) return MISSING;
  return accountId(refs[(1 - workspace) * PER_WORKSPACE + index - PER_WORKSPACE - 1]!);
}

/** A journal of transfers [from, to, amount] between accounts by index (accountOf). */
const journalOf = (workspace: number, transfers: [number, number, bigint][]): Journal => ({
  id: newId(),
  workspace,
  postedAt: new Date(Date.UTC(2026, 10, 27, 12, 0, 0, 1)).toISOString(),
  postings: transfers.flatMap(([from, to, amount]) => [
    { id: newId(), account: accountOf(workspace, from), direction: 'debit', amount },
    { id: newId(), account: accountOf(workspace, to), direction: 'credit', amount },
  ]),
});
/** A journal of one to two transfers (a debit and a credit of one amount), so that most balance. */
const transfer = fc.record({
  from: account,
  to: account,
  amount: fc.oneof(
    { arbitrary: fc.bigInt({ min: 1n, max: 3_000n }), weight: 12 },
    { arbitrary: fc.constant(MAX - 1n), weight: 1 },
  ),
});
const journal = fc.record({
  workspace: fc.integer({ min: 0, max: 1 }),
  transfers: fc.array(transfer, { minLength: 1, maxLength: 2 }),
});

describe('ledger_post_journals', () => {
  it('posts a batch exactly when ledger_post would post each journal in turn, and leaves the same books', async () => {
    let posted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(balance, { minLength: refs.length, maxLength: refs.length }),
        fc.array(fc.boolean(), { minLength: refs.length, maxLength: refs.length }),
        fc.array(journal, { minLength: 1, maxLength: 5 }),
        async (drawn, closing, drawnJournals) => {
          // Party accounts never hold less than zero; only an empty account is closed, and rarely.
          const balances = drawn.map((value, i) => (i % PER_WORKSPACE < 2 && value < 0n ? -value : value));
          const closed = closing.map((close, i) => close && balances[i] === 0n && i % 3 === 0);
          const journals = drawnJournals.map((drawn) =>
            journalOf(
              drawn.workspace,
              drawn.transfers.map((t): [number, number, bigint] => [t.from, t.to, t.amount]),
            ),
          );
          const expected = await booksAfter(balances, closed, oneByOne(journals));
          expect(expected).not.toBe('not run');
          const seen = await booksAfter(balances, closed, together(journals));
          expect(seen).toEqual(expected);
          if (expected === undefined) refused++;
          else posted++;
        },
      ),
      { numRuns: 300 },
    );
    // Both answers were met often enough for the comparison to mean something.
    expect(posted).toBeGreaterThan(15);
    expect(refused).toBeGreaterThan(15);
  });

  it('takes the journals in order: a debit covered only by a later credit is refused, by an earlier one posted', async () => {
    const balances = refs.map((_, i) => (i === 0 ? 100n : 0n));
    const closed = refs.map(() => false);
    const answers = async (journals: Journal[]) => {
      const expected = await booksAfter(balances, closed, oneByOne(journals));
      expect(await booksAfter(balances, closed, together(journals))).toEqual(expected);
      return expected === undefined ? 'refused' : 'posted';
    };
    // Account 0 is a party's (never below zero), 2 the PIX settlement's.
    const overdraw = () => journalOf(0, [[0, 2, 150n]]);
    const cover = () => journalOf(0, [[2, 0, 100n]]);
    expect(await answers([overdraw(), cover()])).toBe('refused');
    expect(await answers([cover(), overdraw()])).toBe('posted');
    // Each debit fits the balance before the batch; the two do not, whatever comes after.
    const debit = () => journalOf(0, [[0, 2, 60n]]);
    expect(await answers([debit(), debit(), cover()])).toBe('refused');
    expect(await answers([debit(), cover(), debit()])).toBe('posted');
  });

  it('leaves the books as they were when it refuses, in the transaction that goes on', async () => {
    const balances = refs.map((_, i) => (i === 0 ? 100n : 0n));
    const closed = refs.map(() => false);
    // A posted journal, then an overdraft after it: the batch is refused as a whole.
    const refusedBatch = [journalOf(0, [[2, 0, 5n]]), journalOf(0, [[0, 2, 500n]])];
    // booksAfter swallows what its function throws: everything is asserted outside it.
    const seen = await booksAfter(balances, closed, async (tx) => {
      const before = await books(tx);
      await tx.exec('SAVEPOINT refused_batch');
      const answer = await together(refusedBatch)(tx);
      await tx.exec('ROLLBACK TO SAVEPOINT refused_batch');
      return { answer, before, after: await books(tx) };
    });
    expect(seen).toMatchObject({ answer: undefined });
    const { before, after } = seen as { before: unknown; after: unknown };
    expect(before).toMatchObject({ balances: expect.any(Array) });
    expect(after).toEqual(before);
  });

  it('refuses malformed arrays: a journal of one posting or none, a posting of no journal', async () => {
    const account = accountId(refs[2]!);
    const call = (postingJournals: number[], journalCount = 1) => {
      const journals = Array.from({ length: journalCount });
      return db.query(
        `SELECT ledger_post_journals($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
           $7::int[], $8::uuid[], $9::uuid[], $10::text[], $11::bigint[])`,
        [
          journals.map(() => newId()),
          journals.map(() => workspaces[0]),
          journals.map(() => env),
          journals.map(() => 'test'),
          journals.map((_, i) => `r${i}`),
          journals.map(() => new Date().toISOString()),
          postingJournals,
          postingJournals.map(() => newId()),
          postingJournals.map(() => account),
          postingJournals.map((_, i) => (i % 2 === 0 ? 'debit' : 'credit')),
          postingJournals.map(() => '1'),
        ],
      );
    };
    // The shape check's own refusal: a posting of no journal would otherwise be refused later, as a
    // missing account (its journal's workspace being null), with the same code.
    const malformed = { code: '23514', message: expect.stringMatching(/each journal needs two postings/) };
    await expect(call([1])).rejects.toMatchObject(malformed);
    await expect(call([1, 2])).rejects.toMatchObject(malformed);
    await expect(call([0, 0, 1, 1])).rejects.toMatchObject(malformed);
    await expect(call([1, 1, 1, 1], 2)).rejects.toMatchObject(malformed);
    await expect(call([1, 1, 3, 3], 2)).rejects.toMatchObject(malformed);
    await expect(call([], 1)).rejects.toMatchObject(malformed);
    await expect(call([1, 1])).resolves.toBeDefined();
    await expect(call([1, 1, 2, 2], 2)).resolves.toBeDefined();
  });
});
