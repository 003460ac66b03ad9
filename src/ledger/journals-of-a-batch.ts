/**
 * The journals of an interleaved group-commit attempt on PostgreSQL, posted for all its requests in
 * one call of ledger_post_journals (migrations 0038, 0040) instead of one ledger_post a request (not on
 * Citus nor PGlite: src/db/joined-writes.ts). One merchant's batch of payouts then moves its balance
 * row once, in one statement, where it moved it once a request.
 *
 * A request cannot learn its journal's answer before the attempt ends, and needs none: in such an
 * attempt it goes on as if posted, and if the one call refuses any journal (a debit not covered, an
 * account missing or closed), the attempt fails and the batch runs again with savepoints, where each
 * request posts its own with ledger_post and gets its own answer (src/db/group-commit.ts).
 *
 * A journal goes this way only if each of its accounts was seen posted in this process: the first
 * journal of an account goes alone, so that ledger_post makes the account (a call that met a missing
 * account would fail the attempt, and its lane would then run with savepoints for a while). An account
 * seen once stays: accounts are closed, never removed, and a closed one only sends the batch to the
 * savepoint run.
 */
import { type Gatherer, gatherInAttempt } from '../db/group-commit.ts';
import type { Tx } from '../db/types.ts';
import type { Environment } from '../platform/context.ts';

/** A posting's side (ledger.ts exports it with the rest of the ledger's types). */
export type Direction = 'debit' | 'credit';

export interface JournalOfABatch {
  id: string;
  workspaceId: string;
  environment: Environment;
  referenceType: string;
  referenceId: string;
  postedAt: Date;
  postings: readonly { id: string; accountId: string; direction: Direction; amount: bigint }[];
}

const POST_JOURNALS = `SELECT ledger_post_journals($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[],
  $6::timestamptz[], $7::int[], $8::uuid[], $9::uuid[], $10::text[], $11::bigint[])`;

/** The one ledger_post_journals call of a batch's journals. */
export const journalsOfABatch: Gatherer<JournalOfABatch> = {
  statement(journals) {
    const postingJournals: number[] = [];
    const postingIds: string[] = [];
    const accountIds: string[] = [];
    const directions: Direction[] = [];
    const amounts: bigint[] = [];
    journals.forEach((journal, index) => {
      for (const posting of journal.postings) {
        postingJournals.push(index + 1);
        postingIds.push(posting.id);
        accountIds.push(posting.accountId);
        directions.push(posting.direction);
        amounts.push(posting.amount);
      }
    });
    return {
      text: POST_JOURNALS,
      params: [
        journals.map((journal) => journal.id),
        journals.map((journal) => journal.workspaceId),
        journals.map((journal) => journal.environment),
        journals.map((journal) => journal.referenceType),
        journals.map((journal) => journal.referenceId),
        journals.map((journal) => journal.postedAt.toISOString()),
        postingJournals,
        postingIds,
        accountIds,
        directions,
        amounts,
      ],
    };
  },
};

/** Accounts seen posted by this process; cleared past the bound, which only sends journals alone. */
const postedAccounts = new Set<string>();
const MAX_POSTED_ACCOUNTS = 100_000;

/** Records that these accounts exist: a journal on them was posted and committed. */
export function sawPosted(accountIds: Iterable<string>): void {
  for (const id of accountIds) {
    if (postedAccounts.size >= MAX_POSTED_ACCOUNTS) postedAccounts.clear();
    postedAccounts.add(id);
  }
}

/**
 * Hands the journal to its attempt's one call when tx is an interleaved attempt's and every account
 * of it was seen posted; false otherwise, and the caller posts it now.
 */
export function postWithTheBatch(tx: Tx, journal: JournalOfABatch): boolean {
  for (const posting of journal.postings) if (!postedAccounts.has(posting.accountId)) return false;
  return gatherInAttempt(tx, journalsOfABatch, journal);
}
