import { afterCommit, type CarriedWrite, committed, type Database, type Tx } from '../../src/db/types.ts';

/**
 * `tx`, with the text of every statement it sends (queried, executed or sent later) pushed on `sent`.
 * The hooks registered on it run when `tx` commits, as they would on `tx` itself.
 */
export function recordingTransaction(tx: Tx, sent: string[]): Tx {
  const recording: Tx = {
    inTransaction: true,
    query: (text, params) => {
      sent.push(text);
      return tx.query(text, params);
    },
    exec: (sql) => {
      sent.push(sql);
      return tx.exec(sql);
    },
    later: (text, params) => {
      sent.push(text);
      tx.later(text, params);
    },
    hold: (...writes: CarriedWrite[]) => tx.hold(...writes),
    settle: () => tx.settle(),
  };
  afterCommit(tx, () => committed(recording));
  return recording;
}

/** `db`, with every statement its transactions send pushed on `sent`. */
export function recordingDatabase(db: Database, sent: string[]): Database {
  return {
    kind: db.kind,
    query: (text, params) => db.query(text, params),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    transaction: (fn, options) => db.transaction((tx) => fn(recordingTransaction(tx, sent)), options),
  };
}
