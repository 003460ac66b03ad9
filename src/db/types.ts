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
   * then as one statement, each a CTE of it: one round trip and one statement for all of them. A
   * `local` write (a job) waits for the handle's end. A held write is a later() write sent late; its
   * error surfaces the same way.
   */
  hold(...writes: CarriedWrite[]): void;
  /** Waits for every later() write sent so far; throws the first one's error. */
  settle(): Promise<void>;
}

/**
 * A write not sent yet, for hold() to join with others: a plain INSERT, UPDATE or DELETE (no WITH, no
 * RETURNING) numbered from $1, with no `$` in its literals, that changes no row another write of the
 * same statement changes (the CTEs of one statement see one snapshot, not each other's rows). In an
 * interleaved group-commit batch the INSERTs its requests still hold at their end share statements
 * across requests (joined-writes.ts); a request holding anything else sends its own.
 */
export interface CarriedWrite {
  text: string;
  params: readonly unknown[];
  /**
   * A write to a table that stays on the Citus coordinator (distribute.ts, LOCAL_TABLES: the job
   * queue): it joins only other such writes, since on Citus one statement cannot meet both kinds of
   * table. Nothing the transaction runs reads it, so it waits for the handle's end (settle, or its
   * request's end) rather than its next statement: a request's job then leaves with its batch's.
   */
  local?: boolean;
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

/** Parameters of one joined statement at most: PostgreSQL takes 65,535, and a batch stays well below. */
const MAX_JOINED_PARAMS = 16_000;

/**
 * Lists of writes (a request's each) in chunks of a power of two, largest first (11: 8, 2 and 1), none
 * past MAX_JOINED_PARAMS unless a list is alone: each joined text is a named statement prepared on
 * every connection, and the process names a bounded number of them, so a kind of list leaves six
 * texts at most rather than one per count.
 */
export function chunksOf<T extends { params: readonly unknown[] }>(lists: T[][]): T[][][] {
  const chunks: T[][][] = [];
  let at = 0;
  while (at < lists.length) {
    let size = 2 ** Math.floor(Math.log2(lists.length - at));
    while (size > 1 && paramsOf(lists, at, size) > MAX_JOINED_PARAMS) size /= 2;
    chunks.push(lists.slice(at, at + size));
    at += size;
  }
  return chunks;
}

function paramsOf(lists: { params: readonly unknown[] }[][], from: number, count: number): number {
  let sum = 0;
  for (let i = from; i < from + count; i++) for (const write of lists[i]!) sum += write.params.length;
  return sum;
}

/**
 * hold() over a way to send a statement; flush() sends what is held, joined, and holds nothing; take()
 * hands what is held to a caller that sends it joined with other requests' writes.
 */
function heldWrites(send: (text: string, params: readonly unknown[]) => void) {
  let held: CarriedWrite[] = [];
  /** Writes to the coordinator's tables (CarriedWrite.local), sent at the end only. */
  let local: CarriedWrite[] = [];
  const sendJoined = (writes: CarriedWrite[]) => {
    const joined = joinWrites(writes);
    send(joined.text, joined.params);
  };
  const flush = () => {
    if (held.length === 0) return;
    const writes = held;
    held = [];
    sendJoined(writes);
  };
  return {
    hold(...writes: CarriedWrite[]): void {
      for (const write of writes) (write.local ? local : held).push(write);
    },
    /** Before the handle's next statement: what it may read. */
    flush,
    /** At the handle's end: everything (jobs in chunks of a power of two: few texts to prepare). */
    flushAll(): void {
      flush();
      if (local.length === 0) return;
      const writes = local;
      local = [];
      for (const chunk of chunksOf(writes.map((write) => [write]))) sendJoined(chunk.flat());
    },
    take(): CarriedWrite[] {
      const taken = local.length === 0 ? held : [...held, ...local];
      held = [];
      local = [];
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
  const { hold, flush, flushAll } = heldWrites(send);
  return {
    flush,
    hold,
    later(text: string, params?: readonly unknown[]): void {
      flush();
      send(text, params);
    },
    async settle(): Promise<void> {
      flushAll();
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
  const { hold, flush, flushAll, take } = heldWrites((text, params) => tx.later(text, params));
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
      flushAll();
      await tx.settle();
    },
  };
  const done = () => {
    if (release === undefined) flushAll();
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
