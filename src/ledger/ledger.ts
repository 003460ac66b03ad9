/**
 * The ledger service: the only code that writes balances, journals and postings.
 *
 * Every function takes the caller's open transaction (Tx): a journal commits or rolls back with the
 * payment, event and idempotency record written beside it. A journal is a set of postings that sums to
 * zero per currency; it is checked here before any SQL runs. The database side (function ledger_post in
 * migration 0002) changes each balance with one conditional UPDATE, in account-id order, and either
 * writes the whole journal or nothing: when a debit cannot be covered it undoes its own changes and
 * this module throws InsufficientBalanceError, leaving the transaction clean and usable.
 *
 * Balance convention: balance = Σ credits − Σ debits. A party account can never go below zero (the
 * function refuses, and a CHECK constraint backs it); system accounts can. Every account of a journal,
 * system accounts included, belongs to the journal's workspace (migration 0006).
 */
import { afterCommit, type Tx } from '../db/types.ts';
import type { Environment } from '../platform/context.ts';
import { AppError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { ledgerPostings } from '../platform/metrics.ts';
import { type AccountRef, accountId, type BalanceKind, ensureAccounts, partyAccount } from './accounts.ts';
import { type Currency, isCurrency, toDecimal } from './currency.ts';
import { type Direction, type JournalOfABatch, postWithTheBatch, sawPosted } from './journals-of-a-batch.ts';

export type { Direction };

export interface PostingInput {
  account: AccountRef;
  direction: Direction;
  /** Positive minor units of the account's currency. */
  amount: bigint;
}

export interface JournalInput {
  workspaceId: string;
  environment: Environment;
  /** What caused the journal, e.g. 'payment' and the payment id. */
  referenceType: string;
  referenceId: string;
  postings: readonly PostingInput[];
  /** posted_at; defaults to now. */
  at?: Date;
}

export interface PostedJournal {
  id: string;
  postedAt: Date;
  postings: { id: string; accountId: string; account: AccountRef; direction: Direction; amount: bigint }[];
}

/** A journal that does not balance or is malformed: a programming error, refused before any SQL. */
export class InvalidJournalError extends Error {
  override name = 'InvalidJournalError';
}

/**
 * The typed failure of a debit its balance cannot cover: 422 insufficient_balance on the wire,
 * naming the request's amount field once a caller that knows it says which (debitOfField).
 */
export class InsufficientBalanceError extends AppError {
  constructor(
    readonly account: AccountRef,
    field?: string,
  ) {
    super(
      'insufficient_balance',
      account.type === 'party'
        ? `The ${account.kind} ${account.currency} balance of party ${account.partyId} cannot cover this amount.`
        : `The ${account.kind} ${account.currency} account cannot cover this amount.`,
      field ? [{ field, issue: 'is more than the available balance can cover, fee included' }] : undefined,
    );
  }
}

/**
 * Runs a write that debits the amount the request's `field` asks for: a balance that cannot cover it
 * is refused naming that field, as a validation error names its own. The ledger sees postings, not
 * requests, so the service that knows the field says it here.
 */
export async function debitOfField<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new InsufficientBalanceError(error.account, field);
    throw error;
  }
}

/** Checks a journal without touching the database; throws InvalidJournalError. */
export function validateJournal(input: JournalInput): void {
  if (input.postings.length < 2) throw new InvalidJournalError('A journal needs at least two postings.');
  const net = new Map<Currency, bigint>();
  for (const [index, posting] of input.postings.entries()) {
    const { account, amount, direction } = posting;
    if (typeof amount !== 'bigint' || amount <= 0n) {
      throw new InvalidJournalError(`Posting ${index}: the amount must be a positive bigint.`);
    }
    if (direction !== 'debit' && direction !== 'credit') {
      throw new InvalidJournalError(`Posting ${index}: direction must be debit or credit.`);
    }
    if (!isCurrency(account.currency)) {
      throw new InvalidJournalError(`Posting ${index}: unknown currency ${String(account.currency)}.`);
    }
    if (account.environment !== input.environment) {
      throw new InvalidJournalError(`Posting ${index}: account of another environment.`);
    }
    // A journal touches one workspace's rows only, system accounts included: no row shared by tenants
    // on the write path, and a journal stays on its workspace's shard when the schema is distributed.
    if (account.workspaceId.toLowerCase() !== input.workspaceId.toLowerCase()) {
      throw new InvalidJournalError(`Posting ${index}: ${account.type} account of another workspace.`);
    }
    const signed = direction === 'credit' ? amount : -amount;
    net.set(account.currency, (net.get(account.currency) ?? 0n) + signed);
  }
  for (const [currency, sum] of net) {
    if (sum !== 0n) {
      throw new InvalidJournalError(
        `The postings do not balance: ${currency} is off by ${toDecimal(sum, currency)}.`,
      );
    }
  }
}

interface PostOutcome {
  outcome: 'ok' | 'insufficient' | 'missing';
  failed_account: string | null;
}

/**
 * Posts one journal in the caller's transaction: all of it, or nothing and an error.
 * Throws InvalidJournalError before touching the database, InsufficientBalanceError (nothing written).
 * In an interleaved group-commit attempt it may go with the batch's other journals, in one call at
 * the attempt's end (journals-of-a-batch.ts).
 */
export async function postJournal(tx: Tx, input: JournalInput): Promise<PostedJournal> {
  validateJournal(input);
  const journal: Journal = {
    id: newId(),
    workspaceId: input.workspaceId,
    environment: input.environment,
    referenceType: input.referenceType,
    referenceId: input.referenceId,
    postedAt: input.at ?? new Date(),
    postings: input.postings.map((posting) => ({
      id: newId(),
      accountId: accountId(posting.account),
      account: posting.account,
      direction: posting.direction,
      amount: posting.amount,
    })),
  };
  if (!postWithTheBatch(tx, journal)) await postAlone(tx, journal);
  afterCommit(tx, () => ledgerPostings.inc({ environment: input.environment }, journal.postings.length));
  return { id: journal.id, postedAt: journal.postedAt, postings: journal.postings };
}

type Journal = JournalOfABatch & { postings: PostedJournal['postings'] };

/** One journal, one ledger_post call (two when it makes accounts first). */
async function postAlone(tx: Tx, journal: Journal): Promise<void> {
  const { postings } = journal;
  const accountIds = postings.map((posting) => posting.accountId);
  const params = [
    journal.id,
    journal.workspaceId,
    journal.environment,
    journal.referenceType,
    journal.referenceId,
    journal.postedAt,
    postings.map((posting) => posting.id),
    accountIds,
    postings.map((posting) => posting.direction),
    postings.map((posting) => posting.amount),
  ];
  // Accounts are created on first use: the function reports a missing one, the accounts this journal
  // may create are created and it runs once more. A party account it would debit is never created here:
  // missing, its balance is zero, so the debit is refused.
  for (let attempt = 0; attempt < 2; attempt++) {
    const { rows } = await tx.query<PostOutcome>(
      'SELECT outcome, failed_account FROM ledger_post($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[], $9::text[], $10::bigint[])',
      params,
    );
    const { outcome, failed_account } = rows[0]!;
    if (outcome === 'ok') {
      // Once committed: an account made in a transaction that rolls back does not exist.
      afterCommit(tx, () => sawPosted(accountIds));
      return;
    }
    const nets = netByAccount(postings);
    const failed = nets.get(failed_account!)!;
    if (outcome === 'insufficient' || (failed.account.type === 'party' && failed.net < 0n)) {
      throw new InsufficientBalanceError(failed.account);
    }
    await ensureAccounts(
      tx,
      [...nets.values()].filter((n) => n.account.type === 'system' || n.net >= 0n).map((n) => n.account),
    );
  }
  throw new Error('ledger_post: accounts still missing after creating them');
}

function netByAccount(
  postings: PostedJournal['postings'],
): Map<string, { account: AccountRef; net: bigint }> {
  const nets = new Map<string, { account: AccountRef; net: bigint }>();
  for (const posting of postings) {
    const entry = nets.get(posting.accountId) ?? { account: posting.account, net: 0n };
    entry.net += posting.direction === 'credit' ? posting.amount : -posting.amount;
    nets.set(posting.accountId, entry);
  }
  return nets;
}

interface Reference {
  referenceType: string;
  referenceId: string;
  at?: Date;
}

/** Moves `amount` from one account to another of the same currency: debit `from`, credit `to`. */
export function transfer(
  tx: Tx,
  input: Reference & {
    workspaceId: string;
    environment: Environment;
    from: AccountRef;
    to: AccountRef;
    amount: bigint;
  },
): Promise<PostedJournal> {
  return postJournal(tx, {
    workspaceId: input.workspaceId,
    environment: input.environment,
    referenceType: input.referenceType,
    referenceId: input.referenceId,
    at: input.at,
    postings: [
      { account: input.from, direction: 'debit', amount: input.amount },
      { account: input.to, direction: 'credit', amount: input.amount },
    ],
  });
}

/** Moves money between two kinds of one party's balance, e.g. available → locked for a payout in flight. */
export function moveKind(
  tx: Tx,
  input: Reference & {
    workspaceId: string;
    environment: Environment;
    partyId: string;
    currency: Currency;
    from: BalanceKind;
    to: BalanceKind;
    amount: bigint;
  },
): Promise<PostedJournal> {
  if (input.from === input.to) throw new InvalidJournalError('A kind move needs two different kinds.');
  const account = (kind: BalanceKind) =>
    partyAccount(input.workspaceId, input.environment, input.partyId, input.currency, kind);
  return transfer(tx, { ...input, from: account(input.from), to: account(input.to) });
}
