/**
 * Group commit of whole requests (docs/performance.md). Concurrent writes queued on the same
 * lane share one transaction, each inside its own SAVEPOINT:
 *
 *   BEGIN; SAVEPOINT gc; <request 1> ; RELEASE SAVEPOINT gc; SAVEPOINT gc; <request 2> ; … COMMIT
 *
 * - A request that throws (insufficient_balance, a check in SQL, an idempotency conflict, a bug) is
 *   rolled back to its savepoint alone; the others of the batch go on.
 * - Every caller is answered after the shared COMMIT returns: a crash before it loses only requests
 *   nobody was told about. If the COMMIT (or a savepoint command) fails, every request of the batch
 *   gets that error: nothing of the batch was acknowledged.
 * - A request refused with a deadlock or serialization failure goes back to the queue (3 tries), as
 *   db.transaction retries it.
 * - Lanes are chosen by key (a workspace): one merchant's writes always meet in one lane, so its hot
 *   balance row is locked once per batch.
 * - On PostgreSQL a lane's next batch starts as soon as the previous one has sent every statement and
 *   only its COMMIT is left. Its first command takes its workspaces' gates, so it queues there, in the
 *   database, behind the committing batch of the same merchant, and its statements run the moment
 *   that COMMIT is done instead of a round trip later. The committing batch takes no lock any more, so
 *   the two cannot deadlock.
 *
 * The savepoint commands are not awaited before the request's own statements: on a pipelining pool
 * they travel with the request's first statement, so a request in a batch costs its own round trips
 * and nothing more. A request's function must only touch the database through its tx (it may run again).
 *
 * A batch whose every request is marked `interleave` runs first without any savepoint: all its
 * requests at once, their statements pipelined side by side on the one connection, so the batch
 * costs a request's round trips instead of the sum of them, and PostgreSQL opens no subtransaction.
 * If any request of that attempt fails (a refusal, a replayed key, an SQL error), the attempt is
 * rolled back whole and the batch runs again as above, one savepoint per request, where each
 * request's failure is its own; the lane then stays with savepoints for a few batches, so a
 * workspace that keeps sending refused writes does not pay for every batch twice. In such an attempt
 * the requests share statements: the rows and jobs they left held go joined, a few statements for the
 * batch (joined-writes.ts; on Citus rows per workspace, jobs apart), what they hand over with
 * gatherInAttempt (the ledger's journals, the parties a credit asks debts of) goes as one statement
 * on PostgreSQL, and the settings they read are read once: in one statement for the batch on
 * PostgreSQL, once a distinct key elsewhere (shared-read.ts).
 */
import { AppError } from '../platform/errors.ts';
import { isConnectionError } from './connection-errors.ts';
import { isCitusCluster } from './distribute.ts';
import { type Gatherer, JoinedWrites } from './joined-writes.ts';
import {
  causeOf,
  commitHooksMark,
  type Database,
  dropCommitHooksSince,
  isRetryable,
  requestScope,
  rootOf,
  type Tx,
} from './types.ts';

export type { Gatherer };

export interface GroupCommitOptions {
  /** Batches that may be open at once (each holds one connection while it runs). */
  lanes?: number;
  /**
   * Requests per transaction at most. PostgreSQL tracks 64 subtransactions per backend cheaply, and a
   * request may use two (its own savepoint and the idempotent write's).
   */
  maxBatch?: number;
  /** Requests a lane may hold waiting; past it a request is refused at once (503 overloaded). */
  maxQueue?: number;
  /** How long a request may wait for its batch; past it, it is refused before it runs (503 overloaded). */
  maxWaitMs?: number;
  /** Milliseconds since some epoch; tests pass a fake. */
  now?: () => number;
  /**
   * SQL run first in each batch's transaction, given the distinct keys of its requests (the ledger
   * takes their workspaces' gates here, in one sorted order, before any request locks a balance).
   */
  prelude?: (keys: readonly string[]) => string;
}

export interface GroupWriteOptions {
  /** How long a statement of this request may wait for a lock (55P03 after), as TransactionOptions. */
  lockTimeoutMs?: number;
  /**
   * false: the function needs no savepoint, because it never leaves the transaction aborted (a lone
   * ledger_post, which undoes itself when refused). Such writes run side by side, pipelined, in one
   * round trip; if one of them fails with a database error, the whole batch fails.
   */
  savepoint?: boolean;
  /**
   * true: the write reads nothing that another write of its lane changes before it writes (its reads
   * are settings, its balance check is the ledger's, which may go with the batch's other journals in
   * one call at the attempt's end), so it may run interleaved with them in one transaction, without a
   * savepoint. One that finds it needs isolation after all calls `isolate(tx)`, and the batch runs
   * again with savepoints.
   */
  interleave?: boolean;
}

/**
 * Transactions of an interleaved attempt (their requests run side by side with no savepoint), with
 * what their requests hand over to be sent joined at the attempt's end.
 */
const interleaving = new WeakMap<Tx, JoinedWrites>();

/** Why an interleaved attempt was rolled back: the batch runs again, one savepoint per request. */
class InterleavingFailed extends Error {}

/** Whether this transaction runs requests side by side without savepoints (an interleaved attempt). */
export function isInterleaved(tx: Tx): boolean {
  return interleaving.has(rootOf(tx));
}

/**
 * Hands `item` to `gatherer` when tx is an interleaved attempt's: it is sent, with every other
 * request's items, in one statement once all the attempt's requests succeeded, and fails the attempt
 * if that statement fails (the batch then runs again with savepoints, each request alone). False
 * anywhere else (and on Citus or PGlite): the caller sends its own statement.
 */
export function gatherInAttempt<T>(tx: Tx, gatherer: Gatherer<T>, item: T): boolean {
  return interleaving.get(rootOf(tx))?.gather(gatherer, item) ?? false;
}

/**
 * Whether the requests of tx's interleaved attempt may still share statements across workspaces
 * (gatherInAttempt, gatheredRead): false outside one, and on Citus or PGlite.
 */
export function gathersInAttempt(tx: Tx): boolean {
  return interleaving.get(rootOf(tx))?.gathering ?? false;
}

/**
 * Asks for the request to run in a savepoint of its own before it writes what depends on a read
 * another request of its batch may change (a debt to recover, an idempotency key already taken):
 * inside an interleaved attempt it ends the attempt, and the batch runs again with savepoints.
 */
export function isolate(tx: Tx): void {
  if (isInterleaved(tx)) throw new InterleavingFailed('this request needs a savepoint of its own');
}

interface Pending {
  key: string;
  lane: number;
  savepoint: boolean;
  interleave: boolean;
  fn: (tx: Tx) => Promise<unknown>;
  lockTimeoutMs: number;
  attempts: number;
  queuedAt: number;
  /** Refuses it once it waited maxWaitMs, even while its lane is held by a batch that does not end. */
  timer?: ReturnType<typeof setTimeout>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown } | { retry: true };

const MAX_ATTEMPTS = 3;
/**
 * How long a statement of an interleaved attempt waits for a lock. Inside the batch's gate almost
 * nothing waits; what does (a key another transaction holds) fails the attempt soon, and waits its
 * own full limit in the savepoint run, instead of twice that limit while the whole batch waits.
 */
const INTERLEAVED_LOCK_WAIT_MS = 1_000;
/** Batches a lane runs with savepoints after an interleaved attempt failed, before it tries again. */
const ISOLATED_AFTER_FAILURE = 8;

export class GroupCommit {
  private readonly queues: Pending[][];
  private readonly running: boolean[];
  /** Per lane: batches that released the lane and wait on their COMMIT (0 or 1). */
  private readonly committingIn: number[];
  /** Per lane: batches still to run with savepoints before interleaving is tried again. */
  private readonly isolatedFor: number[];
  private readonly maxBatch: number;
  private readonly maxQueue: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly prelude?: (keys: readonly string[]) => string;
  /** Whether a lane's next batch may start while the previous one commits. */
  private readonly overlaps: boolean;
  private acrossKeys?: Promise<boolean>;

  constructor(
    private readonly db: Database,
    options: GroupCommitOptions = {},
  ) {
    const lanes = Math.max(1, options.lanes ?? 4);
    this.queues = Array.from({ length: lanes }, () => []);
    this.running = Array.from({ length: lanes }, () => false);
    this.committingIn = Array.from({ length: lanes }, () => 0);
    this.isolatedFor = Array.from({ length: lanes }, () => 0);
    this.maxBatch = Math.max(1, options.maxBatch ?? 32);
    this.maxQueue = Math.max(1, options.maxQueue ?? 2048);
    this.maxWaitMs = Math.max(1, options.maxWaitMs ?? 10_000);
    this.now = options.now ?? Date.now;
    this.prelude = options.prelude;
    // PGlite runs one transaction at a time: a batch started early would only wait for the lock.
    this.overlaps = db.kind === 'postgres' && options.prelude !== undefined;
  }

  /** Runs fn in the next batch of key's lane; resolves once that batch has committed. */
  run<T>(key: string, fn: (tx: Tx) => Promise<T>, options: GroupWriteOptions = {}): Promise<T> {
    const lane = laneOf(key, this.queues.length);
    if (this.queues[lane]!.length >= this.maxQueue) return Promise.reject(overloaded());
    return new Promise<T>((resolve, reject) => {
      const item: Pending = {
        key,
        lane,
        savepoint: options.savepoint ?? true,
        interleave: options.interleave === true,
        fn,
        lockTimeoutMs: Math.max(0, Math.trunc(options.lockTimeoutMs ?? 0)),
        attempts: 0,
        queuedAt: this.now(),
        resolve: (value) => resolve(value as T),
        reject,
      };
      this.armWaitLimit(item, this.maxWaitMs);
      this.queues[lane]!.push(item);
      this.drain(lane);
    });
  }

  /** Refuses a waiting request once its wait limit passes, even while another batch holds its lane. */
  private armWaitLimit(item: Pending, delayMs: number): void {
    const queue = this.queues[item.lane]!;
    item.timer = setTimeout(() => {
      const at = queue.indexOf(item);
      if (at < 0) return; // already taken into a batch
      queue.splice(at, 1);
      item.reject(overloaded());
    }, delayMs);
    item.timer.unref?.();
  }

  private drain(lane: number): void {
    const queue = this.queues[lane]!;
    if (this.running[lane]) return;
    // A request that waited too long is refused before it runs: its caller has likely given up, and
    // nothing of it was written. A retry of a deadlocked request keeps its first queuedAt.
    const oldest = this.now() - this.maxWaitMs;
    while (queue.length > 0 && queue[0]!.queuedAt < oldest) {
      const stale = queue.shift()!;
      clearTimeout(stale.timer);
      stale.reject(overloaded());
    }
    if (queue.length === 0) return;
    this.running[lane] = true;
    const batch = queue.splice(0, this.maxBatch);
    for (const item of batch) clearTimeout(item.timer);
    const state = { released: false, committing: false };
    const release = () => {
      if (state.released) return;
      state.released = true;
      this.running[lane] = false;
    };
    // At most one batch of a lane waits on its COMMIT while the next runs: a lane holds two
    // connections at most, however slow commits get.
    const committing = () => {
      if (!this.overlaps || this.committingIn[lane]! > 0) return;
      this.committingIn[lane]!++;
      state.committing = true;
      release();
      this.drain(lane);
    };
    void this.commit(lane, batch, committing)
      .catch((error) => {
        for (const item of batch) item.reject(error);
      })
      .finally(() => {
        if (state.committing) this.committingIn[lane]!--;
        release();
        // Always: requests this batch put back for a retry wait here, even if the lane was released.
        this.drain(lane);
      });
  }

  /**
   * Runs the batch; `committing` is called once every statement of it is done and only its COMMIT
   * is left, so the lane's next batch can start meanwhile (PostgreSQL; see the class comment).
   */
  private async commit(lane: number, batch: Pending[], committing: () => void): Promise<void> {
    const outcomes =
      (await this.tryInterleaved(lane, batch, committing)) ??
      (await this.db.transaction(
        async (tx) => readyToCommit(tx, await this.runBatch(tx, batch), committing),
        {
          retries: 0,
        },
      ));
    const retries: Pending[] = [];
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('retry' in outcome) retries.push(item);
      else if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
    // Back at the head of its lane, in their order: they run in a later batch, after this one released
    // its locks, and keep the wait limit of their first queueing while another batch holds the lane.
    this.queues[lane]!.unshift(...retries);
    for (const item of retries)
      this.armWaitLimit(item, Math.max(0, item.queuedAt + this.maxWaitMs - this.now()));
  }

  /**
   * The batch with no savepoint, its requests side by side; undefined when it may not run so or one
   * of its requests failed (the attempt is rolled back then). A failure of BEGIN or COMMIT is the
   * batch's, as in runBatch: a COMMIT whose outcome is unknown must never be run again.
   */
  private async tryInterleaved(
    lane: number,
    batch: Pending[],
    committing: () => void,
  ): Promise<Outcome[] | undefined> {
    if (this.isolatedFor[lane]! > 0) {
      this.isolatedFor[lane]!--;
      return undefined;
    }
    const timeout = batch[0]!.lockTimeoutMs;
    if (!batch.every((item) => item.interleave && item.lockTimeoutMs === timeout)) return undefined;
    const acrossKeys = await this.joinsAcrossKeys();
    try {
      return await this.db.transaction(
        async (tx) => {
          // Gathered statements on PostgreSQL only (joined-writes.ts).
          const joined = new JoinedWrites(acrossKeys, acrossKeys && this.db.kind === 'postgres');
          return readyToCommit(tx, await runInterleaved(tx, this.opening(batch), batch, joined), committing);
        },
        { retries: 0 },
      );
    } catch (error) {
      if (!(error instanceof InterleavingFailed)) throw error;
      this.isolatedFor[lane] = ISOLATED_AFTER_FAILURE;
      return undefined;
    }
  }

  /**
   * Whether an interleaved batch's held rows may go joined across its workspaces rather than per
   * workspace: not on Citus, where a statement stays on one workspace's shard. Asked once, before the
   * first interleaved batch; a question that failed answers per workspace and is asked again by the
   * next batch. A database made a Citus coordinator after the process started is not seen (as by the
   * webhook dispatcher and the seal): the process is restarted after `lastro migrate` distributes it.
   */
  private joinsAcrossKeys(): Promise<boolean> | boolean {
    if (this.db.kind === 'pglite') return true;
    this.acrossKeys ??= isCitusCluster(this.db).then(
      (citus) => !citus,
      () => {
        this.acrossKeys = undefined;
        return false;
      },
    );
    return this.acrossKeys;
  }

  /** The batch's prelude (its workspaces' gates), ready to travel in front of its first command. */
  private opening(batch: Pending[]): string {
    const prelude = this.prelude?.([...new Set(batch.map((item) => item.key))]);
    return prelude ? `${prelude}; ` : '';
  }

  /** Runs the batch's steps in order; the outcomes are the batch's items', in the same order. */
  private async runBatch(tx: Tx, batch: Pending[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    // Commands that close a step (or open the batch) are not sent alone: they travel in front of the
    // next step's first command, so they cost no round trip of their own.
    let carried = this.opening(batch);
    for (const step of stepsOf(batch)) {
      const done = step.savepoint
        ? await runInSavepoint(tx, carried, step.items[0]!)
        : await runSideBySide(tx, carried, step.items);
      outcomes.push(...done.outcomes);
      carried = done.closing;
    }
    return outcomes;
  }
}

/**
 * The batch's statements are all done, its held writes sent: only COMMIT is left. Past this point the
 * batch takes no lock, so a next batch of its lane that queues on its gates cannot deadlock with it.
 */
async function readyToCommit<T>(tx: Tx, outcomes: T, committing: () => void): Promise<T> {
  await tx.settle();
  committing();
  return outcomes;
}

interface Step {
  savepoint: boolean;
  items: Pending[];
}

interface StepDone {
  outcomes: Outcome[];
  /** SQL that must run before the next step's (the release of this step's savepoint). */
  closing: string;
}

/** A request with a savepoint is a step alone; neighbours without one and with one lock timeout share a step. */
function stepsOf(batch: Pending[]): Step[] {
  const steps: Step[] = [];
  for (const item of batch) {
    const last = steps.at(-1);
    const joins =
      last && !last.savepoint && !item.savepoint && last.items[0]!.lockTimeoutMs === item.lockTimeoutMs;
    if (joins) last.items.push(item);
    else steps.push({ savepoint: item.savepoint, items: [item] });
  }
  return steps;
}

/**
 * A request's function on its own scope of the batch's transaction, its after-commit hooks kept: what
 * it holds before its next statement is joined with its own writes alone; what it still holds when it
 * is done is sent then, or, in an interleaved attempt (`joined`), with the other requests' at the
 * attempt's end. A request that failed sends none of them and runs none of its hooks.
 */
async function runScoped(tx: Tx, item: Pending, joined?: JoinedWrites): Promise<unknown> {
  const scope = requestScope(tx, joined && ((writes) => joined.add(tx, item.key, writes)));
  const value = await item.fn(scope.tx);
  scope.done();
  return value;
}

/** One request inside its own savepoint: a refusal or an error rolls back this request alone. */
async function runInSavepoint(tx: Tx, carried: string, item: Pending): Promise<StepDone> {
  // Not awaited here: it goes ahead of the request's first statement on the same connection.
  const opened = tx.exec(`${carried}SAVEPOINT gc; SET LOCAL lock_timeout = ${item.lockTimeoutMs}`);
  opened.catch(() => {});
  const hooks = commitHooksMark(tx);
  try {
    const value = await runScoped(tx, item);
    await tx.settle();
    await opened;
    return { outcomes: [{ ok: true, value }], closing: 'RELEASE SAVEPOINT gc; ' };
  } catch (thrown) {
    const error = await causeOf(tx, thrown);
    await opened; // a savepoint that could not be opened fails the batch: nothing to roll back to
    await tx.exec('ROLLBACK TO SAVEPOINT gc; RELEASE SAVEPOINT gc');
    dropCommitHooksSince(tx, hooks);
    const retry = isRetryable(error) && ++item.attempts < MAX_ATTEMPTS;
    return { outcomes: [retry ? { retry: true } : { ok: false, error }], closing: '' };
  }
}

/**
 * Every request of the batch at once, no savepoint: all succeed, or the attempt is refused with
 * InterleavingFailed (rolled back by the transaction) once every request has stopped sending.
 */
async function runInterleaved(
  tx: Tx,
  carried: string,
  items: Pending[],
  joined: JoinedWrites,
): Promise<Outcome[]> {
  const limit = items[0]!.lockTimeoutMs; // 0: no limit
  const wait = limit === 0 ? INTERLEAVED_LOCK_WAIT_MS : Math.min(limit, INTERLEAVED_LOCK_WAIT_MS);
  const opened = tx.exec(`${carried}SET LOCAL lock_timeout = ${wait}`);
  opened.catch(() => {});
  interleaving.set(tx, joined);
  // async: a function that throws before returning a promise is refused like one that rejects, once
  // every other request has stopped sending, never by leaving the attempt while they still write.
  const settled = await Promise.allSettled(items.map(async (item) => runScoped(tx, item, joined)));
  // A failed attempt is rolled back whole: what its requests left held need not be sent. A gathered
  // statement that cannot even be built fails the attempt like one the database refused.
  let unsent: unknown;
  if (settled.every((outcome) => outcome.status === 'fulfilled')) {
    try {
      joined.send(tx);
    } catch (error) {
      unsent = error ?? new Error('a gathered statement could not be built');
    }
  }
  interleaving.delete(tx);
  const flushed = await tx.settle().then(
    () => undefined,
    (error: unknown) => error ?? new Error('a later() write failed'),
  );
  await opened; // the batch's own opening failed: that is the batch's error, as with savepoints
  const errors = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
  if (unsent !== undefined) errors.push(unsent);
  if (flushed !== undefined) errors.push(flushed);
  if (errors.length === 0) {
    return settled.map((outcome) => ({
      ok: true,
      value: (outcome as PromiseFulfilledResult<unknown>).value,
    }));
  }
  // The connection is gone: the database is, for now, and this is the batch's error as with
  // savepoints (503 to every request); running it again would only meet the same outage.
  const lost = errors.find(isConnectionError);
  if (lost !== undefined) throw lost;
  throw new InterleavingFailed('a request of the attempt failed', { cause: errors[0] });
}

/** Writes that need no savepoint, all sent at once; a refusal (AppError) is theirs alone. */
async function runSideBySide(tx: Tx, carried: string, items: Pending[]): Promise<StepDone> {
  // They share one lock timeout: theirs, never the previous request's SET LOCAL.
  await tx.exec(`${carried}SET LOCAL lock_timeout = ${items[0]!.lockTimeoutMs}`);
  const settled = await Promise.allSettled(items.map(async (item) => runScoped(tx, item)));
  await tx.settle();
  const outcomes = settled.map((outcome): Outcome => {
    if (outcome.status === 'fulfilled') return { ok: true, value: outcome.value };
    // Anything but a refusal may have left the transaction aborted: the whole batch fails.
    if (!(outcome.reason instanceof AppError)) throw outcome.reason;
    return { ok: false, error: outcome.reason };
  });
  return { outcomes, closing: '' };
}

const overloaded = () =>
  new AppError(
    'overloaded',
    'Too many writes are waiting for this workspace; retry after the time in Retry-After.',
    undefined,
    {
      'retry-after': '1',
    },
  );

/**
 * A stable lane for a key: the same workspace always lands on the same lane. FNV-1a spreads ids well
 * enough for a handful of lanes, without a digest object per request (the lane is not a secret).
 */
export function laneOf(key: string, lanes: number): number {
  if (lanes === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
