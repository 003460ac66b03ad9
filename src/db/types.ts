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
  /**
   * Keeps writes that add rows nothing reads before COMMIT (a payment's row and its event, the
   * Idempotency-Key's record) until this handle sends its next statement or settles, and sends them
   * then as one statement, each a CTE of it: one round trip and one statement for all of them. A held
   * write is a later() write sent late; its error surfaces the same way.
   */
  hold(...writes: CarriedWrite[]): void;
  /** Waits for every later() write sent so far; throws the first one's error. */
  settle(): Promise<void>;
}

/**
 * A write not sent yet, for hold() to join with others: a plain INSERT, UPDATE or DELETE (no WITH, no
 * RETURNING) numbered from $1, with no `$` in its literals, that changes no row another write of the
 * same statement changes (the CTEs of one statement see one snapshot, not each other's rows).
 */
export interface CarriedWrite {
  text: string;
  params: readonly unknown[];
}

/** Writes as one statement: every one but the last a CTE, each one's parameters after the previous one's. */
export function joinWrites(writes: readonly CarriedWrite[]): CarriedWrite {
  if (writes.length === 1) return writes[0]!;
  const params: unknown[] = [];
  for (const write of writes) for (const param of write.params) params.push(param);
  return { text: joinedText(writes), params };
}

/**
 * The joined texts already built, by the texts they join and how many parameters each had: a kind of
 * request holds the same writes every time, and building the text again (renumbering placeholders,
 * concatenating) cost more than the rest of the join. The same string each time is also a cheap key
 * for the named-statement lookup after it. Held texts are meant to be constants; the trie is bounded
 * (in nodes, one per text on a path) because a text built per call would add a branch per variant,
 * and past the bound a join is built each time, as before.
 */
interface JoinNode {
  next: Map<string, JoinNode>;
  built?: { text: string; counts: number[] };
}
const joins: JoinNode = { next: new Map() };
let joinNodes = 0;
const MAX_JOIN_NODES = 1_000;

function joinedText(writes: readonly CarriedWrite[]): string {
  let node = joins;
  for (const write of writes) {
    let next = node.next.get(write.text);
    if (next === undefined) {
      if (joinNodes >= MAX_JOIN_NODES) return buildJoinedText(writes);
      next = { next: new Map() };
      node.next.set(write.text, next);
      joinNodes++;
    }
    node = next;
  }
  const built = node.built;
  if (built !== undefined && writes.every((write, i) => write.params.length === built.counts[i]))
    return built.text;
  const text = buildJoinedText(writes);
  node.built ??= { text, counts: writes.map((write) => write.params.length) };
  return text;
}

function buildJoinedText(writes: readonly CarriedWrite[]): string {
  const parts: string[] = [];
  let shift = 0;
  for (const write of writes) {
    parts.push(shift === 0 ? write.text : write.text.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + shift}`));
    shift += write.params.length;
  }
  const last = parts.pop()!;
  return `WITH ${parts.map((part, i) => `w${i} AS (${part})`).join(', ')} ${last}`;
}

/**
 * hold() over a way to send a statement; flush() sends what is held, joined, and holds nothing; take()
 * hands what is held to a caller that sends it joined with other requests' writes.
 */
function heldWrites(send: (text: string, params: readonly unknown[]) => void) {
  let held: CarriedWrite[] = [];
  return {
    hold(...writes: CarriedWrite[]): void {
      held.push(...writes);
    },
    flush(): void {
      if (held.length === 0) return;
      const joined = joinWrites(held);
      held = [];
      send(joined.text, joined.params);
    },
    take(): CarriedWrite[] {
      const taken = held;
      held = [];
      return taken;
    },
  };
}

/** later(), hold() and settle() over a driver's query function; flush() sends what is held. */
function laterWrites(run: (text: string, params?: readonly unknown[]) => Promise<unknown>) {
  let pending: Promise<unknown>[] = [];
  const send = (text: string, params?: readonly unknown[]) => {
    const sent = run(text, params);
    sent.catch(() => {}); // read by settle(); never an unhandled rejection meanwhile
    pending.push(sent);
  };
  const { hold, flush } = heldWrites(send);
  return {
    flush,
    hold,
    later(text: string, params?: readonly unknown[]): void {
      flush();
      send(text, params);
    },
    async settle(): Promise<void> {
      flush();
      const waiting = pending;
      pending = [];
      const outcomes = await Promise.allSettled(waiting);
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  };
}

/** A transaction's handle over its driver: every statement sends what hold() kept first, in order. */
export function transactionHandle(driver: {
  query<R>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  exec(sql: string): Promise<void>;
}): Tx {
  const writes = laterWrites((text, params) => driver.query(text, params));
  return {
    inTransaction: true,
    query<R = Row>(text: string, params?: readonly unknown[]) {
      writes.flush();
      return driver.query<R>(text, params);
    },
    exec(sql: string) {
      writes.flush();
      return driver.exec(sql);
    },
    later: writes.later,
    hold: writes.hold,
    settle: writes.settle,
  };
}

const ROOT = Symbol('the transaction a request scope is of');

/** The transaction itself, for a request's scope of it (a batch's state is kept there). */
export function rootOf(tx: Tx): Tx {
  return (tx as Tx & { [ROOT]?: Tx })[ROOT] ?? tx;
}

/**
 * One request's handle on a transaction other requests share (a group-commit batch): what it holds
 * before its next statement is joined with its own writes only, never with another request's; its
 * after-commit hooks are its own until it is done. `done` hands its hooks to the transaction and
 * sends what it still holds, or gives it to `release` when the batch joins the writes its requests
 * left held (src/db/group-commit.ts): a request that failed calls nothing, so neither its held writes
 * nor its hooks outlive it.
 */
export function requestScope(
  tx: Tx,
  release?: (writes: CarriedWrite[]) => void,
): { tx: Tx; done: () => void } {
  const { hold, flush, take } = heldWrites((text, params) => tx.later(text, params));
  const scoped: Tx & { [ROOT]: Tx } = {
    [ROOT]: rootOf(tx),
    inTransaction: true,
    query<R = Row>(text: string, params?: readonly unknown[]) {
      flush();
      return tx.query<R>(text, params);
    },
    exec(sql: string) {
      flush();
      return tx.exec(sql);
    },
    later(text: string, params?: readonly unknown[]) {
      flush();
      tx.later(text, params);
    },
    hold,
    async settle() {
      flush();
      await tx.settle();
    },
  };
  const done = () => {
    if (release === undefined) flush();
    else {
      const left = take();
      if (left.length > 0) release(left);
    }
    for (const fn of onCommit.get(scoped) ?? []) afterCommit(tx, fn);
    onCommit.delete(scoped);
  };
  return { tx: scoped, done };
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

/** bigint parameters travel to PGlite as their decimal text, as pg writes them itself; the server casts them. */
export function toDriverParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (!params) return undefined;
  return params.map((value) => {
    if (typeof value === 'bigint') return value.toString();
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'bigint' ? item.toString() : item));
    return value;
  });
}

/**
 * Waits for statements sent one behind the other on a transaction's connection (pipelined), all of
 * them, failed or not, so none is still on its way when the caller moves on; the first one's error,
 * in the order given, is the error: a later one refused with 25P02 only says an earlier one failed.
 */
export async function pipelined<T extends readonly unknown[]>(
  ...sent: { [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const outcomes = await Promise.allSettled(sent);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
