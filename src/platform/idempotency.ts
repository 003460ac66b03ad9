import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isInterleaved } from '../db/group-commit.ts';
import { commitHooksMark, dropCommitHooksSince, type Tx } from '../db/types.ts';
import type { Caller, Deps, Environment } from './context.ts';
import { AppError, invalidRequest, LOCK_NOT_AVAILABLE, pgErrorCode } from './errors.ts';
import { headerUtf8 } from './header-text.ts';
import { moneyJson } from './outbox.ts';
import { withCounterpartyMasked } from './payer-document.ts';

/** 1–255 printable characters (API.md): any Unicode but control characters, counted as characters. */
const KEY_PATTERN = /^[^\p{Cc}]{1,255}$/u;
const IN_USE_WAIT_MS = 10_000;
const RETENTION_HOURS = 24;

/** JSON with object keys sorted, so the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function requestHash(request: FastifyRequest): Buffer {
  const path = request.url.replace(/^\/v1\/test\//, '/v1/sandbox/');
  return createHash('sha256')
    .update(`${request.method} ${path}\n${canonicalJson(request.body ?? null)}`)
    .digest();
}

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  // Node hands header values over as latin1, one character per byte: read them back as strict UTF-8.
  const key = typeof raw === 'string' ? headerUtf8(raw) : undefined;
  if (key === undefined || !KEY_PATTERN.test(key)) {
    throw invalidRequest('Idempotency-Key must be 1 to 255 printable characters, sent as UTF-8.', [
      { field: 'headers.idempotency-key', issue: 'must be 1..255 printable characters in valid UTF-8' },
    ]);
  }
  return key;
}

interface StoredRecord {
  request_hash: Buffer | Uint8Array;
  response: unknown;
}

/**
 * Whose keys a request's key is among: a caller's (its workspace, environment and scope) or, where no
 * caller stands behind the request (a public checkout), what the route names, so a buyer's key can
 * never meet one of the merchant's own.
 */
export interface KeyOwner {
  workspaceId: string;
  environment: Environment;
  scope: string;
}

/** Runs a function in a transaction: the database's own, or a group-commit lane's savepoint. */
export type WriteRunner = <T>(fn: (tx: Tx) => Promise<T>, options: { lockTimeoutMs?: number }) => Promise<T>;

/**
 * Runs a write under the request's Idempotency-Key, in one transaction with the key's record.
 * The record is inserted first: a concurrent duplicate blocks on its unique index until the first
 * commits (then replays) or rolls back (then runs); it never runs twice. A crash before commit
 * leaves neither the write nor the record, so a retry runs it once.
 */
export async function runIdempotentWrite<T>(
  deps: Deps,
  request: FastifyRequest,
  fn: (tx: Tx) => Promise<T>,
  run: WriteRunner = (write, options) => deps.db.transaction(write, options),
  /** fn only touches the database (no provider call): it may start before the key is known to be fresh. */
  speculative = false,
  keyOwner?: KeyOwner,
): Promise<T> {
  const key = idempotencyKeyOf(request);
  const owner = keyOwner ?? (request.caller ? ownerOf(request.caller) : undefined);
  if (key === undefined || !owner) return run(fn, {});

  const hash = requestHash(request);
  const scope: KeyScope = [owner.workspaceId, owner.environment, owner.scope, key];
  const claimed = [
    ...scope,
    hash,
    request.method,
    request.url.split('?')[0],
    request.routeOptions.config.moneyMoving === true,
  ];
  const claim = (tx: Tx) => claimKey(tx, claimed);
  const sealed = (response: T) => JSON.stringify({ sealed: deps.sealer.seal(moneyJson(response)) });
  const outcome = await run(
    async (tx) => {
      if (speculative && isInterleaved(tx)) {
        const response = await fn(tx);
        // Interleaved with other requests, the key is written once, whole, after the write: a key
        // already there (a re-send, or the same key twice in the batch) fails this INSERT (23505),
        // that fails the attempt, and the batch runs again with savepoints, where the claim finds the
        // key and replays its answer.
        // Held: it joins the statement of the rows the write held (its payment, event, deliveries).
        tx.hold({
          text: `INSERT INTO idempotency_keys
                   (workspace_id, environment, caller, key, request_hash, method, path, money_moving, status_code, response)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 200, $9)`,
          params: [...claimed, sealed(response)],
        });
        return { replayed: false as const, response };
      }
      const { inserted, ran } = speculative
        ? await claimAhead(tx, claim, fn)
        : { inserted: await claim(tx), ran: undefined };
      if (!inserted) {
        return { replayed: true as const, response: (await storedAnswer(deps, tx, scope, hash)) as T };
      }
      const response = ran ? ran.value : await fn(tx);
      tx.hold({
        text: `UPDATE idempotency_keys SET status_code = 200, response = $5
                WHERE workspace_id = $1 AND environment = $2 AND caller = $3 AND key = $4`,
        params: [...scope, sealed(response)],
      });
      return { replayed: false as const, response };
    },
    { lockTimeoutMs: IN_USE_WAIT_MS },
  );
  request.idempotencyReplayed = outcome.replayed;
  return outcome.response;
}

type KeyScope = readonly [workspaceId: string, environment: string, caller: string, key: string];

/**
 * The speculative path: the write runs right behind the key's insert, pipelined, under a savepoint of
 * its own. A fresh key (the usual case) saves a round trip; a replay rolls the write back before the
 * record is read, so `ran` is set exactly when `inserted` is.
 */
async function claimAhead<T>(
  tx: Tx,
  claim: (tx: Tx) => Promise<boolean>,
  fn: (tx: Tx) => Promise<T>,
): Promise<{ inserted: boolean; ran?: { value: T } }> {
  const claimed = claim(tx);
  claimed.catch(() => {});
  const guard = tx.exec('SAVEPOINT idempotent_write');
  guard.catch(() => {});
  const hooks = commitHooksMark(tx);
  const work = fn(tx).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const inserted = await claimed.catch(async (error) => {
    await work;
    throw error;
  });
  const done = await work;
  if (inserted) {
    await guard;
    if (!done.ok) throw done.error;
    return { inserted, ran: { value: done.value } };
  }
  await tx.settle().catch(() => {});
  await guard;
  await tx.exec('ROLLBACK TO SAVEPOINT idempotent_write');
  dropCommitHooksSince(tx, hooks); // the write rolled back: its counters must not move
  return { inserted };
}

/** The answer stored under a key that was already claimed: 409 when it guards another request. */
async function storedAnswer(deps: Deps, tx: Tx, scope: KeyScope, hash: Buffer): Promise<unknown> {
  const { rows } = await tx.query<StoredRecord>(
    'SELECT request_hash, response FROM idempotency_keys WHERE workspace_id = $1 AND environment = $2 AND caller = $3 AND key = $4',
    [...scope],
  );
  const stored = rows[0];
  if (!stored)
    throw new AppError(
      'idempotency_key_in_use',
      'Retry: the first request with this key was just rolled back.',
    );
  if (!Buffer.from(stored.request_hash).equals(hash)) {
    throw new AppError('idempotency_key_reuse', 'This Idempotency-Key was used with a different request.');
  }
  // An answer stored before payments were stored masked still replays with the document masked.
  return withCounterpartyMasked(openStored(deps, stored.response));
}

/**
 * Whether this request's Idempotency-Key already holds the committed answer to this same request: a
 * re-send that will be replayed. A check that must not run twice (a one-time code spent by the first
 * request) is skipped for it, so the replay reaches the caller.
 */
export async function answerIsStored(
  deps: Deps,
  request: FastifyRequest,
  keyOwner?: KeyOwner,
): Promise<boolean> {
  const held = await keyRecord(deps, request, keyOwner);
  return held?.answered === true && held.sameRequest;
}

/**
 * The answer stored for a re-sent request, through its write path, without running anything: a
 * route whose checks or provider call come before its write uses it when `answerIsStored`, so a
 * re-send is not refused for a state the first request made. 409 conflict in the moment between the
 * check and the read when the stored answer has just expired.
 */
export function replayStoredAnswer<T>(write: (fn: (tx: Tx) => Promise<T>) => Promise<T>): Promise<T> {
  return write(() => {
    throw new AppError(
      'conflict',
      'The answer stored for this Idempotency-Key has just expired: send a new key.',
    );
  });
}

/**
 * For a route that acts at a provider before its write (issues a charge, cancels at the PSP): a
 * re-send of a request whose answer is stored gets that answer without acting again, which would
 * leave a second charge at the provider or refuse the state the first request made; a key that
 * guards another request is 409 before anything is done. `act` returns what its write returned.
 */
export async function actOnce<T>(
  deps: Deps,
  request: FastifyRequest,
  act: () => Promise<T>,
  /** Whose key it is when the route has no caller (a public checkout's keys are its link's). */
  keyOwner?: KeyOwner,
): Promise<T> {
  await refuseKeyReuse(deps, request, keyOwner);
  if (await answerIsStored(deps, request, keyOwner))
    return replayStoredAnswer<T>((fn) => request.write(fn, { keyOwner }));
  return act();
}

/**
 * 409 idempotency_key_reuse when this request's Idempotency-Key already guards another request, done
 * or still running. The write refuses it too, but only once it runs: a route that acts at a provider
 * before its write calls this first, so a reused key changes nothing there either.
 */
export async function refuseKeyReuse(
  deps: Deps,
  request: FastifyRequest,
  keyOwner?: KeyOwner,
): Promise<void> {
  const held = await keyRecord(deps, request, keyOwner);
  if (held && !held.sameRequest)
    throw new AppError('idempotency_key_reuse', 'This Idempotency-Key was used with a different request.');
}

/** The record of this request's Idempotency-Key, if any: whether it guards this request, and is answered. */
async function keyRecord(deps: Deps, request: FastifyRequest, keyOwner?: KeyOwner) {
  const key = idempotencyKeyOf(request);
  const owner = keyOwner ?? (request.caller ? ownerOf(request.caller) : undefined);
  if (key === undefined || !owner) return undefined;
  const { rows } = await deps.db.query<{ request_hash: Buffer | Uint8Array; answered: boolean }>(
    `SELECT request_hash, response IS NOT NULL AS answered FROM idempotency_keys
      WHERE workspace_id = $1 AND environment = $2 AND caller = $3 AND key = $4`,
    [owner.workspaceId, owner.environment, owner.scope, key],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { answered: row.answered, sameRequest: Buffer.from(row.request_hash).equals(requestHash(request)) };
}

/**
 * Inserts the key's record; false when it exists (after waiting for a concurrent duplicate's outcome).
 * The outer SELECT runs only once the row is in (after any wait on a concurrent duplicate): it lifts
 * the lock timeout, which is meant for that wait alone, for the rest of the write. It is a SELECT over
 * the insert rather than the insert's RETURNING because a distributed database (Citus) takes no
 * volatile function in a RETURNING.
 */
async function claimKey(tx: Tx, params: unknown[]): Promise<boolean> {
  try {
    const result = await tx.query(
      `WITH claimed AS (
         INSERT INTO idempotency_keys (workspace_id, environment, caller, key, request_hash, method, path, money_moving)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING 1
       )
       SELECT set_config('lock_timeout', '0', true) FROM claimed`,
      params,
    );
    return result.rows.length === 1;
  } catch (error) {
    if (pgErrorCode(error) === LOCK_NOT_AVAILABLE) {
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed.',
      );
    }
    throw error;
  }
}

/**
 * Stored responses can hold secrets shown once (an API key, a webhook secret), so they are kept
 * sealed under the master key, never as plain JSON in the table.
 */
function openStored(deps: Deps, stored: unknown): unknown {
  const sealed = (stored as { sealed?: string } | null)?.sealed;
  if (typeof sealed !== 'string') throw new Error('idempotency record without a sealed response');
  return JSON.parse(deps.sealer.open(sealed));
}

/** Who owns a key: the workspace as a whole, or one party-scoped key's party, as seen from the caller's own workspace. */
function ownerOf(caller: Caller): KeyOwner {
  const acting = caller.actingSubaccountId ? `acting:${caller.callerWorkspaceId}` : 'workspace';
  return {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    scope: caller.partyId ? `${acting}|party:${caller.partyId.toLowerCase()}` : acting,
  };
}

/** Deletes records older than the retention, except those guarding money-moving creates. */
export async function sweepIdempotencyKeys(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - RETENTION_HOURS * 3600_000);
  const { rowCount } = await deps.db.query(
    'DELETE FROM idempotency_keys WHERE created_at < $1 AND NOT money_moving',
    [cutoff],
  );
  return rowCount;
}
