import { gathersInAttempt, isInterleaved } from './group-commit.ts';
import { type QueryResult, type Row, rootOf, type Tx } from './types.ts';

const sharedReads = new WeakMap<Tx, Map<string, Promise<QueryResult<Row>>>>();

/**
 * A read of settings (a party, its keys, its fees) that the requests of an interleaved group-commit
 * attempt share: those that read the same text with the same parameters get the rows of one
 * statement, frozen, since they are everyone's. The interleave contract already says such reads see
 * nothing another request of the batch writes. Anywhere else it is tx.query.
 */
export function sharedRead<R extends Row>(
  tx: Tx,
  text: string,
  params: readonly (string | null)[],
): Promise<QueryResult<R>> {
  if (!isInterleaved(tx)) return tx.query<R>(text, params);
  const root = rootOf(tx);
  let reads = sharedReads.get(root);
  if (reads === undefined) {
    reads = new Map();
    sharedReads.set(root, reads);
  }
  const key = JSON.stringify([text, params]);
  let read = reads.get(key);
  if (read === undefined) {
    read = tx.query<Row>(text, params).then(frozen);
    reads.set(key, read);
  }
  return read as Promise<QueryResult<R>>;
}

/**
 * A settings read that the requests of an interleaved attempt make as one statement for all of them,
 * whatever their workspaces, on PostgreSQL (group-commit.ts, gathersInAttempt). Its texts take no
 * count: arrays as parameters, so each is one named statement. It goes on the first asker's
 * transaction, ahead of what the other askers hold: a read of settings no request of a batch writes.
 */
export interface GatheredRead<K> {
  /** One key's read, as a request alone sends it. */
  alone(key: K): { text: string; params: readonly (string | null)[] };
  /** Every key's read at once; each row carries `ord`, the 1-based position of the key it answers. */
  together(keys: readonly K[]): { text: string; params: unknown[] };
  /** One name for the keys that read the same rows: they are asked once. */
  nameOf(key: K): string;
}

/** The keys asked of one reader in one turn, each with its answer to come. */
interface Asked {
  keys: unknown[];
  byName: Map<string, Promise<readonly Row[]>>;
  answers: { resolve: (rows: readonly Row[]) => void; reject: (error: unknown) => void }[];
}

const gathered = new WeakMap<Tx, Map<GatheredRead<never>, Asked>>();

/**
 * `reader`'s rows for `key`, frozen (they may be another request's too). In an attempt that gathers,
 * the keys asked in one turn of the event loop (the attempt's requests start together and a payout
 * reads its settings first) go as one statement, sent as that turn ends, on the first asker's
 * transaction; its failure is every asker's, and so fails the attempt. Elsewhere the key's own read,
 * shared by the attempt's requests that ask the same (sharedRead).
 */
export async function gatheredRead<K, R extends Row>(
  tx: Tx,
  reader: GatheredRead<K>,
  key: K,
): Promise<readonly R[]> {
  if (!gathersInAttempt(tx)) {
    const { text, params } = reader.alone(key);
    return (await sharedRead<R>(tx, text, params)).rows;
  }
  const name = reader.nameOf(key);
  const asked = askedOf(tx, reader as GatheredRead<never>);
  let rows = asked.byName.get(name);
  if (rows === undefined) {
    asked.keys.push(key);
    rows = new Promise((resolve, reject) => asked.answers.push({ resolve, reject }));
    asked.byName.set(name, rows);
  }
  return (await rows) as readonly R[];
}

/** The keys asked of `reader` in this turn: sent together once the turn's synchronous work is done. */
function askedOf(tx: Tx, reader: GatheredRead<never>): Asked {
  const root = rootOf(tx);
  let readers = gathered.get(root);
  if (readers === undefined) {
    readers = new Map();
    gathered.set(root, readers);
  }
  const current = readers.get(reader);
  if (current !== undefined) return current;
  const asked: Asked = { keys: [], byName: new Map(), answers: [] };
  readers.set(reader, asked);
  queueMicrotask(() => {
    readers.delete(reader);
    send(tx, reader, asked);
  });
  return asked;
}

/**
 * One statement for every key asked; each answer gets its key's rows (`ord`), none of another's. Every
 * failure (building the statement, sending it, a row that names no key) is every asker's: an asker
 * left unanswered would hold the attempt, and its lane, for good.
 */
function send(tx: Tx, reader: GatheredRead<never>, asked: Asked): void {
  Promise.resolve()
    .then(() => {
      const { text, params } = reader.together(asked.keys as never[]);
      return tx.query<Row>(text, params);
    })
    .then(({ rows }) => {
      const byOrd = asked.answers.map((): Row[] => []);
      for (const row of rows) {
        const answer = byOrd[Number(row.ord) - 1];
        if (answer === undefined)
          throw new Error(`a gathered read answered a key it was not asked: ${row.ord}`);
        answer.push(Object.freeze(row));
      }
      asked.answers.forEach((answer, i) => {
        answer.resolve(Object.freeze(byOrd[i]!));
      });
    })
    .catch((error: unknown) => {
      for (const answer of asked.answers) answer.reject(error ?? new Error('a gathered read failed'));
    });
}

function frozen<R extends Row>(result: QueryResult<R>): QueryResult<R> {
  for (const row of result.rows) Object.freeze(row);
  Object.freeze(result.rows);
  return Object.freeze(result);
}
