import { isInterleaved } from './group-commit.ts';
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

function frozen<R extends Row>(result: QueryResult<R>): QueryResult<R> {
  for (const row of result.rows) Object.freeze(row);
  Object.freeze(result.rows);
  return Object.freeze(result);
}
