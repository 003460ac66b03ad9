import type { Database } from '../src/db/types.ts';
import {
  InsufficientBalanceError,
  type JournalInput,
  type PostedJournal,
  postJournal,
  validateJournal,
} from '../src/ledger/ledger.ts';

interface Pending {
  input: JournalInput;
  resolve: (journal: PostedJournal) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for journals that stand alone (nothing else has to be written in their transaction:
 * settlement sweeps, fee postings, internal transfers). Calls to post() made while a batch is committing
 * wait and are then posted together, one ledger_post each, in one transaction: a hot account pays one
 * commit (one WAL flush, one lock hold) per batch instead of per journal.
 *
 * - A journal refused for insufficient_balance fails alone: ledger_post undoes its own changes, so the
 *   rest of the batch commits. Any other error fails every journal of the batch (none was committed).
 * - A journal resolves only once its batch has committed.
 * - `lanes` batches may commit at once (default 1: the best for one hot account, and two batches can
 *   then never lock the same accounts in opposite orders).
 *
 * Journals that must commit with other writes (a payment, its event, an idempotency record) do not use
 * this: they call postJournal in their own transaction.
 */
export class LedgerBatcher {
  private readonly pending: Pending[] = [];
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly lanes: number;

  constructor(
    private readonly db: Database,
    options: { maxBatch?: number; lanes?: number } = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.lanes = options.lanes ?? 1;
  }

  /** Posts a journal in the next batch. Rejects with InvalidJournalError before queueing it. */
  post(input: JournalInput): Promise<PostedJournal> {
    try {
      validateJournal(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.pending.length > 0 && this.inFlight < this.lanes) {
      const batch = this.pending.splice(0, this.maxBatch);
      this.inFlight++;
      void this.commit(batch).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    let outcomes: (PostedJournal | InsufficientBalanceError)[];
    try {
      outcomes = await this.db.transaction(async (tx) => {
        const out: (PostedJournal | InsufficientBalanceError)[] = [];
        for (const { input } of batch) {
          try {
            out.push(await postJournal(tx, input));
          } catch (error) {
            if (!(error instanceof InsufficientBalanceError)) throw error;
            out.push(error);
          }
        }
        return out;
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof InsufficientBalanceError) item.reject(outcome);
      else item.resolve(outcome);
    });
  }
}
