import pg from 'pg';
import { isConnectionError } from './connection-errors.ts';
import { LeanQuery, StaleDescriptionError } from './lean-query.ts';
import {
  causeOf,
  committed,
  type Database,
  isRetryable,
  isStalePlan,
  type ListenEvent,
  type QueryResult,
  type Row,
  type TransactionOptions,
  type Tx,
  transactionHandle,
} from './types.ts';

pg.types.setTypeParser(20, (value) => BigInt(value));

/**
 * Every client keeps an 'error' listener for its whole life. pg-pool hands a released client to a
 * waiting connect() while the same socket's chunk is still being parsed, with no listener until the
 * waiter's continuation runs; an error message right behind the ReadyForQuery (PostgreSQL's fast stop
 * sends one) then ended the process (soak, 2026-11-24). The client is then not queryable, so the
 * waiter's first statement fails as a lost connection (503), as any other.
 */
function guardPoolClients(pool: pg.Pool) {
  pool.on('connect', (client) => client.on('error', () => {}));
}

/**
 * Parameterised statements are named, so each connection parses and plans them once rather than on
 * every request. The names are per process and bounded: a statement whose text varies (a list built
 * per call) would otherwise leave one prepared statement per variant on every connection.
 */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();
// A migration that changed a statement's columns makes its prepared form unusable on every
// connection: every name is then forgotten and statements are prepared anew under fresh names.
let generation = 0;

function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known !== undefined || statementNames.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `lastro_${generation}_${statementNames.size}`;
  statementNames.set(text, name);
  return name;
}

interface RunOptions {
  /** Every run asks PostgreSQL to describe its result (a transaction-mode pooler stands between). */
  describeEveryRun: boolean;
}

/**
 * One statement, answered by one promise settled from pg's callback: no promise per layer. A
 * statement whose prepared form a migration made stale has every name forgotten; outside a
 * transaction, one PostgreSQL refused at Bind never ran, so it is sent once more, prepared afresh.
 * One whose rows no longer matched their kept description has run, and is never sent again.
 */
function run<R>(
  client: pg.Pool | pg.PoolClient,
  options: RunOptions,
  text: string,
  params?: readonly unknown[],
) {
  // pg writes bigints, and arrays of them, as their decimal text itself.
  const values = params as unknown[] | undefined;
  return new Promise<QueryResult<R>>((resolve, reject) => {
    const send = (again: boolean) => {
      const name = values === undefined ? undefined : statementName(text);
      const query = new LeanQuery(name === undefined ? { text, values } : { name, text, values });
      query.keepsDescriptions = !options.describeEveryRun;
      // pg answers success with a null error, the pool's callback with an undefined one.
      const answered = (error: Error | null | undefined, result?: unknown) => {
        if (!error) {
          const { rows, rowCount } = result as pg.QueryResult;
          resolve({ rows: rows as R[], rowCount: rowCount ?? 0 });
          return;
        }
        if (!isStalePlan(error)) return reject(error);
        if (statementNames.get(text) === name) {
          generation++;
          statementNames.clear();
        }
        // Outside a transaction, a statement that ran is neither sent again nor retried whole: its
        // write (if any) has committed, and only its rows could not be read.
        if (error instanceof StaleDescriptionError) reject(again ? ranUnread(error) : error);
        else if (again) send(false);
        else reject(error);
      };
      // The pool releases its client from the callback it passes: it must not find one set.
      if (client instanceof pg.Pool) client.query(query as unknown as pg.QueryConfig, answered);
      else {
        query.callback = answered;
        client.query(query as unknown as pg.QueryConfig);
      }
    };
    send(client instanceof pg.Pool);
  });
}

/** A statement that ran outside a transaction and whose rows could not be read: not retryable. */
function ranUnread(cause: StaleDescriptionError): Error {
  return new Error('the statement ran, but its rows no longer matched their kept description', { cause });
}

export function openPostgres(
  connectionString: string,
  max = 20,
  runOptions: RunOptions = { describeEveryRun: false },
): Database {
  // Pipelining: a query issued while another is in flight on the same client is sent at once, not
  // after the answer (a group-commit savepoint travels with the request's first statement).
  const pool = new pg.Pool({ connectionString, max, pipeline: true } as pg.PoolConfig);
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  guardPoolClients(pool);
  const listeners = new Set<() => void>();
  return {
    kind: 'postgres',
    query: <R = Row>(text: string, params?: readonly unknown[]) => run<R>(pool, runOptions, text, params),
    async transaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const retries = options.retries ?? 3;
      for (let attempt = 0; ; attempt++) {
        const outcome = await attemptTransaction(pool, fn, options, runOptions);
        if (outcome.ok) return outcome.value;
        if (attempt < retries && outcome.retryable) {
          // Jittered, growing pause: two writers that deadlocked must not meet again in lockstep.
          await new Promise((resolve) => setTimeout(resolve, (attempt + 1) * (5 + Math.random() * 20)));
          continue;
        }
        throw outcome.error;
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    close: async () => {
      for (const stop of listeners) stop();
      await pool.end();
    },
    listen(channel: string, onEvent: (event: ListenEvent) => void) {
      listeners.add(listenOn(connectionString, channel, onEvent));
    },
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown; retryable: boolean };

/** One run of a transaction on a client of its own: committed, or rolled back with why. */
async function attemptTransaction<T>(
  pool: pg.Pool,
  fn: (tx: Tx) => Promise<T>,
  options: TransactionOptions,
  runOptions: RunOptions,
): Promise<Attempt<T>> {
  const lease = await leaseClient(pool, runOptions);
  const { client, tx } = lease;
  try {
    // One round trip for both: BEGIN and the lock timeout travel as one simple-protocol query.
    await client.query(
      options.lockTimeoutMs === undefined
        ? 'BEGIN'
        : `BEGIN; SET LOCAL lock_timeout = ${Math.trunc(options.lockTimeoutMs)}`,
    );
    const value = await fn(tx);
    await tx.settle();
    // COMMIT of a transaction an error left aborted answers ROLLBACK, not an error: never success.
    const ending = await client.query('COMMIT');
    if (ending.command === 'ROLLBACK') throw new Error('the transaction was aborted; COMMIT rolled it back');
    lease.release();
    committed(tx);
    return { ok: true, value };
  } catch (thrown) {
    const error = await causeOf(tx, thrown);
    // A lost connection is never retried: lost during COMMIT, the outcome is unknown, and the
    // function may not be run twice. The caller answers database_unavailable.
    const lost = lease.lost();
    if (lost || isConnectionError(error)) {
      lease.release(lost ?? (error as Error));
      return { ok: false, error, retryable: false };
    }
    const rollbackError = await client.query('ROLLBACK').then(
      () => undefined,
      (failure: Error) => failure,
    );
    lease.release(rollbackError);
    return { ok: false, error, retryable: isRetryable(error) };
  }
}

/**
 * A transaction's statements issued in one tick (a batch's requests side by side, a request's
 * pipelined pair) leave in one socket write: pg writes each statement on its own otherwise, and
 * every write is a system call here and a wake-up of the backend there.
 */
function coalesceWrites(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: CorkableStream } }).connection?.stream;
  if (stream === undefined || typeof stream.cork !== 'function' || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork();
  });
}

interface CorkableStream {
  cork(): void;
  uncork(): void;
}
const corked = new WeakSet<CorkableStream>();

/** A client checked out for one transaction, and the transaction's handle on it. */
async function leaseClient(pool: pg.Pool, runOptions: RunOptions) {
  const client = await pool.connect();
  // A checked-out client has no listener of the pool's: without this one, a backend terminated
  // mid-transaction is an unhandled 'error' event, which ends the process.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  const tx: Tx = transactionHandle({
    query: <R = Row>(text: string, params?: readonly unknown[]) => {
      coalesceWrites(client);
      return run<R>(client, runOptions, text, params);
    },
    exec: async (sql: string) => {
      coalesceWrites(client);
      await client.query(sql);
    },
  });
  return {
    client,
    tx,
    lost: () => lost,
    // A client that lost its connection is destroyed, never handed to the next transaction.
    release: (error?: Error) => {
      client.off('error', onError);
      client.release(error ?? lost);
    },
  };
}

const RELISTEN_FIRST_MS = 1000;
const RELISTEN_MAX_MS = 30_000;
/**
 * A connection can die without an error (a failover, a partition): it would then look up while no
 * notification reaches it, so the listener asks it a question this often and, unanswered within the
 * same time, counts the connection lost.
 */
const HEARTBEAT_EVERY_MS = 10_000;

/** Resolves when `client` answers a trivial query within `ms`; rejects otherwise. */
function answers(client: pg.Client, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), ms);
  });
  return Promise.race([client.query('SELECT 1'), late]).finally(() => clearTimeout(timer));
}

/** Ends a client without waiting and without its events reaching anyone. */
function discard(client: pg.Client | undefined): void {
  if (client === undefined) return;
  client.removeAllListeners();
  client.on('error', () => {});
  client.end().catch(() => {});
}

/** A LISTEN kept up on a client of its own until the returned function stops it. */
function listenOn(connectionString: string, channel: string, onEvent: (event: ListenEvent) => void) {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let waitMs = RELISTEN_FIRST_MS;
  const lost = () => {
    if (client === undefined) return;
    clearInterval(heartbeat);
    discard(client);
    client = undefined;
    onEvent('lost');
    if (stopped) return;
    retry = setTimeout(connect, waitMs);
    waitMs = Math.min(waitMs * 2, RELISTEN_MAX_MS);
  };
  const connect = () => {
    const next = new pg.Client({ connectionString, keepAlive: true });
    client = next;
    // Only the current client's failures count: a late one of a client already replaced is not news.
    const lostThis = () => {
      if (client === next) lost();
    };
    next.on('error', lostThis);
    next.on('end', lostThis);
    next.on('notification', (message) => {
      if (message.channel === channel) onEvent('message');
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
      .then(() => {
        if (client !== next || stopped) return;
        waitMs = RELISTEN_FIRST_MS;
        heartbeat = setInterval(() => answers(next, HEARTBEAT_EVERY_MS).catch(lostThis), HEARTBEAT_EVERY_MS);
        heartbeat.unref();
        onEvent('ready');
      }, lostThis);
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(heartbeat);
    discard(client);
    client = undefined;
  };
}
