/**
 * Setting aside what one background round cannot handle. A watcher or sweep works through items of
 * every tenant in one order; an item that throws every time (a deposit the ledger refuses, a payment
 * whose provider answer cannot be read) would otherwise stop the round in front of all the others,
 * round after round. Instead the item is recorded in set_aside_items with its error, counted
 * (lastro_set_aside_total), reported by the round as a SetAsideError once the rest is done (the
 * task runner logs it as an alert), and retried by its owner on a doubling backoff, never again in
 * front of the others. Errors that are about the database or the round, not the item (a lost
 * connection, a deadlock, a timeout), still stop the round: every item would fail alike, and the
 * next round tries them all again.
 */
import { Counter } from 'prom-client';
import { isConnectionError } from '../db/connection-errors.ts';
import type { Queryable } from '../db/types.ts';
import type { Environment } from './environment.ts';
import { metricsRegistry } from './metrics.ts';

export const setAsideTotal = new Counter({
  name: 'lastro_set_aside_total',
  help: 'Items a background round set aside after they failed (first time or again on a retry), by source',
  labelNames: ['source'],
  registers: [metricsRegistry],
});

/** Backoff of a set-aside item's retries: 1 minute, doubling, at most 6 hours. */
export const SET_ASIDE_FIRST_RETRY_MS = 60_000;
export const SET_ASIDE_LAST_RETRY_MS = 6 * 3600_000;

/** SQLSTATEs that say nothing about the item: serialization, deadlock, cancelled (timeout), lock timeout, resources. */
const ROUND_SQLSTATES = new Set(['40001', '40P01', '57014', '55P03', '53000', '53100', '53200', '53300']);

/** True when the error is the round's (the database is away or busy), not the item's. */
export function isRoundError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ROUND_SQLSTATES.has(code);
}

/**
 * True when the item failed only because its provider is away (503 provider_unavailable, a timeout,
 * a connection that could not be made): the item is not at fault, so its retry stays at the first
 * step however often it failed, and it is handled within a minute of the provider answering again
 * rather than hours later.
 */
export function isProviderAway(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (code === 'provider_unavailable') return true;
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  // fetch reports a refused or reset connection as 'fetch failed' with the socket's error as cause.
  return cause !== undefined && isConnectionError(cause);
}

export interface SetAsideItem {
  key: string;
  environment?: Environment;
  workspaceId?: string;
  /** What the owner needs to retry it (bigints are written as decimal text). */
  payload: unknown;
}

export interface SetAsideFailure {
  key: string;
  error: string;
}

/** Thrown by a round after the rest of its work is done, naming what it set aside. */
export class SetAsideError extends Error {
  constructor(
    readonly source: string,
    readonly items: SetAsideFailure[],
  ) {
    super(
      `${source}: ${items.length} item(s) set aside: ${items.map((i) => `${i.key}: ${i.error}`).join('; ')}`,
    );
    this.name = 'SetAsideError';
  }
}

const json = (value: unknown) =>
  JSON.stringify(value ?? null, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));

/**
 * Records (or records again, one attempt more) an item that failed, with its next retry on the
 * backoff (the first step while its provider is away), and counts it. Returns what the round reports.
 */
export async function setAside(
  q: Queryable,
  source: string,
  item: SetAsideItem,
  error: unknown,
  now: Date,
): Promise<SetAsideFailure> {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  await q.query(
    `INSERT INTO set_aside_items (source, item_key, environment, workspace_id, payload, error, error_code,
                                  first_failed_at, last_failed_at, retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8::timestamptz + $9 * interval '1 millisecond')
     ON CONFLICT (source, item_key) DO UPDATE SET
       payload = EXCLUDED.payload, error = EXCLUDED.error, error_code = EXCLUDED.error_code,
       attempts = set_aside_items.attempts + 1, last_failed_at = EXCLUDED.last_failed_at,
       retry_at = EXCLUDED.last_failed_at
                  + CASE WHEN $11 THEN $9::float8
                         ELSE least($10::float8, $9::float8 * power(2, set_aside_items.attempts)) END
                  * interval '1 millisecond',
       resolved_at = NULL, resolution = NULL`,
    [
      source,
      item.key,
      item.environment ?? null,
      item.workspaceId ?? null,
      json(item.payload),
      message.slice(0, 2000),
      typeof code === 'string' ? code : null,
      now,
      SET_ASIDE_FIRST_RETRY_MS,
      SET_ASIDE_LAST_RETRY_MS,
      isProviderAway(error),
    ],
  );
  setAsideTotal.inc({ source });
  return { key: item.key, error: message };
}

export interface SetAsideRow {
  item_key: string;
  environment: Environment | null;
  workspace_id: string | null;
  payload: string;
  attempts: number;
}

/** Open items of a source whose retry is due, oldest retry first. */
export async function dueSetAside(
  q: Queryable,
  source: string,
  now: Date,
  limit = 20,
): Promise<SetAsideRow[]> {
  const { rows } = await q.query<SetAsideRow>(
    `SELECT item_key, environment, workspace_id, payload, attempts FROM set_aside_items
      WHERE source = $1 AND resolved_at IS NULL AND retry_at <= $2 ORDER BY retry_at LIMIT $3`,
    [source, now, limit],
  );
  return rows;
}

/** Of `keys`, those set aside and still open (due for a retry or not). */
export async function openSetAside(q: Queryable, source: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await q.query<{ item_key: string }>(
    `SELECT item_key FROM set_aside_items WHERE source = $1 AND item_key = ANY($2::text[]) AND resolved_at IS NULL`,
    [source, keys],
  );
  return new Set(rows.map((row) => row.item_key));
}

/** Items handled at last: their open records are closed as retried (one statement per round). */
export async function resolveSetAside(
  q: Queryable,
  source: string,
  keys: string[],
  now: Date,
): Promise<void> {
  if (keys.length === 0) return;
  await q.query(
    `UPDATE set_aside_items SET resolved_at = $3, resolution = 'retried'
      WHERE source = $1 AND item_key = ANY($2::text[]) AND resolved_at IS NULL`,
    [source, keys, now],
  );
}

/** How many open items closeSettledElsewhere looks at per statement. */
const SETTLED_BATCH = 500;

/**
 * Closes a source's open items whose retry is due but which its sweep no longer finds, because
 * another path settled them (a poll job, the PSP, an operator): nothing retries them any more, and
 * left open they would hold lastro_set_aside_open, and its alert, up for ever. `stillPending` is the
 * sweep's own test, asked of the owner's tables: of these keys, those whose item still waits for it.
 * Two steps, never one statement over set_aside_items and the owner's table: on Citus the items
 * stay on the coordinator while the owner's rows are distributed, and such a statement is refused.
 */
export async function closeSettledElsewhere(
  q: Queryable,
  source: string,
  stillPending: (keys: string[]) => Promise<readonly string[]>,
  now: Date,
): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await q.query<{ item_key: string }>(
      `SELECT item_key FROM set_aside_items
        WHERE source = $1 AND resolved_at IS NULL AND retry_at <= $2 AND item_key > $3
        ORDER BY item_key LIMIT $4`,
      [source, now, after, SETTLED_BATCH],
    );
    const keys = rows.map((row) => row.item_key);
    if (keys.length === 0) return;
    const pending = new Set(await stillPending(keys));
    const settled = keys.filter((key) => !pending.has(key));
    // retry_at is asked again: an item set aside anew meanwhile waits for its new retry.
    if (settled.length > 0)
      await q.query(
        `UPDATE set_aside_items SET resolved_at = $3, resolution = 'retried'
          WHERE source = $1 AND item_key = ANY($2::text[]) AND resolved_at IS NULL AND retry_at <= $3`,
        [source, settled, now],
      );
    if (keys.length < SETTLED_BATCH) return;
    after = keys.at(-1)!;
  }
}

/**
 * Keys of a source's open items whose retry is not yet due: a sweep leaves them out (notWaitingSql)
 * so an item set aside waits for its retry instead of coming first again; the retry is the sweep
 * itself finding the item again once retry_at has passed. Read apart from the sweep's own query, as
 * on Citus set_aside_items (local) and the sweep's table (distributed) cannot meet in one statement;
 * the list is short, since items are set aside rarely. An item set aside by another process between
 * the two reads may be looked at once more in this round, as if that process had been a moment later.
 */
export async function waitingSetAside(q: Queryable, source: string, now: Date): Promise<string[]> {
  const { rows } = await q.query<{ item_key: string }>(
    `SELECT item_key FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL AND retry_at > $2`,
    [source, now],
  );
  return rows.map((row) => row.item_key);
}

/** SQL a sweep adds to its WHERE to leave out the keys of waitingSetAside (a text[] parameter). */
export const notWaitingSql = (keyExpression: string, keysParam: string) =>
  `NOT (${keyExpression} = ANY(${keysParam}::text[]))`;

/**
 * Handles each item on its own: one that throws an error of its own is set aside and the others
 * go on; a round error (see isRoundError) stops the round as before. Items handled that had been set
 * aside are closed. Returns the failures; the caller throws SetAsideError once its round is done.
 */
export async function eachApart<T>(
  db: Queryable,
  source: string,
  items: readonly T[],
  describe: (item: T) => SetAsideItem,
  handle: (item: T) => Promise<void>,
  now: () => Date,
): Promise<SetAsideFailure[]> {
  const failures: SetAsideFailure[] = [];
  const handled: string[] = [];
  for (const item of items) {
    try {
      await handle(item);
      handled.push(describe(item).key);
    } catch (error) {
      if (isRoundError(error)) throw error;
      failures.push(await setAside(db, source, describe(item), error, now()));
    }
  }
  await resolveSetAside(db, source, handled, now());
  return failures;
}
