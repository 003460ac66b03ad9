export type Row = Record<string, unknown>;

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** An open transaction. Services receive it explicitly; only the Database hands them out. */
export interface Tx extends Queryable {
  readonly inTransaction: true;
  /**
   * Sends a write whose result nobody reads (an event, a job, a record update) without waiting for it:
   * on PostgreSQL it is pipelined ahead of the next statement. Its error surfaces at settle() or as
   * the transaction's error before COMMIT, so it commits exactly with the rest.
   */
  later(text: string, params?: readonly unknown[]): void;
  /** Waits for every later() write sent so far; throws the first one's error. */
  settle(): Promise<void>;
}

/**
 * A write not sent yet, for another module's statement to carry: a plain INSERT, UPDATE or DELETE
 * (no WITH, no RETURNING) numbered from $1, which the carrier runs as a CTE of its own statement.
 */
export interface CarriedWrite {
  text: string;
  params: readonly unknown[];
}

/** later() and settle() over a driver's query function. */
export function laterWrites(run: (text: string, params?: readonly unknown[]) => Promise<unknown>) {
  let pending: Promise<unknown>[] = [];
  return {
    later(text: string, params?: readonly unknown[]): void {
      const sent = run(text, params);
      sent.catch(() => {}); // read by settle(); never an unhandled rejection meanwhile
      pending.push(sent);
    },
    async settle(): Promise<void> {
      const waiting = pending;
      pending = [];
      const outcomes = await Promise.allSettled(waiting);
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  };
}

/**
 * The error a failed transaction function is refused with: a statement refused with 25P02 only says
 * an earlier one aborted the transaction, maybe a later() write nobody awaited; that one's error
 * (a deadlock to retry, a constraint) is the cause. Waits for the later() writes sent so far.
 */
export async function causeOf(tx: Tx, error: unknown): Promise<unknown> {
  const earlier = await tx.settle().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const aborted = (error as { code?: unknown } | null)?.code === '25P02';
  return aborted && earlier !== undefined ? earlier : error;
}

export interface TransactionOptions {
  /** Re-run the function on deadlock or serialization failure (the function must only touch the database). */
  retries?: number;
  /** PostgreSQL: how long a statement may wait for a row lock before failing with 55P03. */
  lockTimeoutMs?: number;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
  /** The connection pool's use (PostgreSQL); the embedded database has one connection and none. */
  pool?(): { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL: LISTENs on `channel` on a connection of its own, reconnecting while the database is
   * open. `ready` once the LISTEN is in place (again after a reconnection), `message` per notification,
   * `lost` when the connection drops, since notifications sent meanwhile are never seen. The embedded
   * database has none: one process owns it, so nothing changes it unseen.
   */
  listen?(channel: string, onEvent: (event: ListenEvent) => void): void;
}

export type ListenEvent = 'ready' | 'message' | 'lost';

const onCommit = new WeakMap<Tx, (() => void)[]>();

/** Runs `fn` once `tx` has committed, never if it rolls back (metrics must not count what did not happen). */
export function afterCommit(tx: Tx, fn: () => void): void {
  const pending = onCommit.get(tx);
  if (pending) pending.push(fn);
  else onCommit.set(tx, [fn]);
}

/** How many after-commit hooks `tx` holds: a savepoint's mark, for dropSince when it rolls back. */
export function commitHooksMark(tx: Tx): number {
  return onCommit.get(tx)?.length ?? 0;
}

/** Forgets the hooks registered since `mark` (their savepoint was rolled back). */
export function dropCommitHooksSince(tx: Tx, mark: number): void {
  onCommit.get(tx)?.splice(mark);
}

/**
 * Called by the drivers right after COMMIT. A hook that throws must not turn a durable commit into a
 * reported failure (nor make the driver roll back a connection already handed back): it is skipped.
 */
export function committed(tx: Tx): void {
  const hooks = onCommit.get(tx) ?? [];
  onCommit.delete(tx);
  for (const fn of hooks) {
    try {
      fn();
    } catch {
      // best effort (a metric): the transaction has committed whatever it says
    }
  }
}

const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryable(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (RETRYABLE.has((error as { code?: string }).code ?? '') || isStalePlan(error))
  );
}

/**
 * A named statement prepared before a migration changed the columns it returns: PostgreSQL refuses
 * it from then on. The driver prepares it again under a new name (src/db/postgres.ts), so a retry works.
 * The message follows the server's lc_messages (a pt_BR server translates it), and 0A000 alone is any
 * unsupported feature: the function that raised it is what names this error in every language.
 */
export function isStalePlan(error: unknown): boolean {
  const { code, message, routine } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    routine?: unknown;
  };
  if (code !== '0A000') return false;
  return (
    routine === 'RevalidateCachedQuery' ||
    (typeof message === 'string' && message.startsWith('cached plan must not change'))
  );
}

/** bigint parameters travel as their decimal text; both drivers then cast them to BIGINT. */
export function toDriverParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (!params) return undefined;
  return params.map((value) => {
    if (typeof value === 'bigint') return value.toString();
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'bigint' ? item.toString() : item));
    return value;
  });
}
