import type { Tx } from '../db/types.ts';
import type { Environment } from '../platform/environment.ts';
import type { AccountRef } from './accounts.ts';
import { type PostedJournal, type PostingInput, postJournal } from './ledger.ts';

export interface Distribution {
  workspaceId: string;
  environment: Environment;
  referenceType: string;
  referenceId: string;
  at?: Date;
  /** Debited for the sum of the recipients and the fee. */
  from: AccountRef;
  recipients: readonly { account: AccountRef; amount: bigint }[];
  fee?: { account: AccountRef; amount: bigint };
}

/**
 * "An amount to N recipients plus a fee" as one journal: a payout or refund (one recipient: the
 * rail's settlement account), a paid charge (the party), a split payment (several parties).
 * Zero amounts are left out, since a posting is always positive.
 */
export function postDistribution(tx: Tx, input: Distribution): Promise<PostedJournal> {
  const credits = [...input.recipients, ...(input.fee ? [input.fee] : [])].filter((part) => part.amount > 0n);
  const total = credits.reduce((sum, part) => sum + part.amount, 0n);
  const postings: PostingInput[] = [
    { account: input.from, direction: 'debit', amount: total },
    ...credits.map((part) => ({ account: part.account, direction: 'credit' as const, amount: part.amount })),
  ];
  return postJournal(tx, {
    workspaceId: input.workspaceId,
    environment: input.environment,
    referenceType: input.referenceType,
    referenceId: input.referenceId,
    at: input.at,
    postings,
  });
}
