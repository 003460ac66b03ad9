/**
 * An interleaved batch (src/db/group-commit.ts) runs its requests side by side in one transaction
 * without savepoints; they then share statements. What each left held when it ended goes as one
 * statement for the batch (per workspace on Citus, src/db/joined-writes.ts), and settings read with
 * sharedRead are read once for every request that asks the same. Each request still gets its own
 * rows written and its own answer, and a failed attempt writes nothing it held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.ts';
import { GroupCommit, sharedRead } from './group-commit.ts';
import { JoinedWrites } from './joined-writes.ts';
import type { CarriedWrite, Database, Tx } from './types.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(
    `CREATE TABLE sb_rows (tag text PRIMARY KEY, n int NOT NULL);
     CREATE TABLE sb_log (tag text);
     CREATE TABLE sb_settings (key text PRIMARY KEY, fee int NOT NULL);
     INSERT INTO sb_settings VALUES ('a', 7), ('b', 9)`,
  );
});
afterAll(() => db.close());

/** The database, with every statement its transactions send written down in `sent`. */
function recording(sent: string[]): Database {
  const recorded = (tx: Tx): Tx => ({
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
    hold: (...writes) => tx.hold(...writes),
    settle: () => tx.settle(),
  });
  return {
    kind: db.kind,
    query: (text, params) => db.query(text, params),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    transaction: (fn, options) => db.transaction((tx) => fn(recorded(tx)), options),
  };
}

const row = (tag: string, n: number): CarriedWrite => ({
  text: 'INSERT INTO sb_rows (tag, n) VALUES ($1, $2)',
  params: [tag, n],
});
const log = (tag: string): CarriedWrite => ({ text: 'INSERT INTO sb_log (tag) VALUES ($1)', params: [tag] });
const written = async (table: 'sb_rows' | 'sb_log', prefix: string) =>
  (
    await db.query<{ tag: string }>(`SELECT tag FROM ${table} WHERE tag LIKE $1 ORDER BY tag`, [`${prefix}%`])
  ).rows.map((r) => r.tag);
const interleave = { interleave: true };

/** Runs `writes` as one interleaved batch: a first request holds the lane while they queue. */
async function oneBatch(group: GroupCommit, writes: { key: string; fn: (tx: Tx) => Promise<unknown> }[]) {
  const first = group.run('first', async (tx) => tx.query('SELECT 1'));
  const outcomes = Promise.allSettled(writes.map(({ key, fn }) => group.run(key, fn, interleave)));
  await first;
  return outcomes;
}

describe('an interleaved batch', () => {
  it('sends the rows its requests left held as one statement, across its workspaces', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recording(sent), { lanes: 1 });
    const hold = (tag: string) => async (tx: Tx) => {
      tx.hold(row(tag, 1), log(tag));
      return tag;
    };
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: hold('held-1') },
      { key: 'b', fn: hold('held-2') },
      { key: 'a', fn: hold('held-3') },
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual([
      'held-1',
      'held-2',
      'held-3',
    ]);
    expect(await written('sb_rows', 'held-')).toEqual(['held-1', 'held-2', 'held-3']);
    expect(await written('sb_log', 'held-')).toEqual(['held-1', 'held-2', 'held-3']);
    expect(sent.filter((text) => text.includes('sb_rows'))).toHaveLength(1);
  });

  it('writes nothing its requests held when one of them fails, and each request once it runs alone', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recording(sent), { lanes: 1 });
    const hold = (tag: string, fails: boolean) => async (tx: Tx) => {
      tx.hold(row(tag, 1));
      if (fails) throw new Error(`${tag} refused`);
      return tag;
    };
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: hold('failed-1', false) },
      { key: 'a', fn: hold('failed-2', true) },
      { key: 'a', fn: hold('failed-3', false) },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await written('sb_rows', 'failed-')).toEqual(['failed-1', 'failed-3']);
  });

  it('fails the attempt on a held row two requests both write, then answers each alone', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const same = (n: number) => async (tx: Tx) => {
      tx.hold(row('twice', n));
      return n;
    };
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: same(1) },
      { key: 'a', fn: same(2) },
    ]);
    // Together, the two rows break the primary key and the attempt; in savepoints the first lands.
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect((await db.query<{ n: number }>("SELECT n FROM sb_rows WHERE tag = 'twice'")).rows).toEqual([
      { n: 1 },
    ]);
  });

  it('reads the same settings once for every request that asks them, and others apart', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recording(sent), { lanes: 1 });
    const text = 'SELECT fee FROM sb_settings WHERE key = $1';
    const read = (key: string) => async (tx: Tx) => {
      const { rows } = await sharedRead<{ fee: number }>(tx, text, [key]);
      tx.hold(log(`read-${key}`));
      return rows[0]!.fee;
    };
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: read('a') },
      { key: 'a', fn: read('a') },
      { key: 'b', fn: read('b') },
      { key: 'a', fn: read('a') },
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual([7, 7, 9, 7]);
    expect(sent.filter((sql) => sql === text)).toHaveLength(2);
  });

  it('reads settings with a statement of its own outside an interleaved batch', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recording(sent), { lanes: 1 });
    const text = 'SELECT fee FROM sb_settings WHERE key = $1 AND fee > 0';
    const read = async (tx: Tx) => (await sharedRead<{ fee: number }>(tx, text, ['b'])).rows[0]!.fee;
    // Without `interleave` the batch runs with a savepoint per request: no request shares a read.
    const first = group.run('first', async (tx) => tx.query('SELECT 1'));
    const fees = Promise.all([group.run('a', read), group.run('a', read)]);
    await first;
    expect(await fees).toEqual([9, 9]);
    expect(sent.filter((sql) => sql === text)).toHaveLength(2);
  });
});

describe('JoinedWrites', () => {
  const statements = (acrossKeys: boolean, order: string[]) => {
    const sent: { text: string; params: readonly unknown[] }[] = [];
    const tx = {
      later: (text: string, params: readonly unknown[]) => sent.push({ text, params }),
    } as unknown as Tx;
    const joined = new JoinedWrites(acrossKeys);
    for (const key of order) joined.add(key, key === 'b' ? [log(key)] : [row(key, 1), log(key)]);
    joined.send(tx);
    return sent;
  };

  it('joins one workspace’s writes alone when statements may not cross workspaces (Citus)', () => {
    const sent = statements(false, ['a', 'b', 'a']);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.params).toEqual(['a', 1, 'a', 'a', 1, 'a']);
    expect(sent[1]!.params).toEqual(['b']);
  });

  it('sends the same text whatever order the requests ended in', () => {
    const texts = [
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
    ].map((order) => statements(true, order));
    expect(texts.every((sent) => sent.length === 1)).toBe(true);
    expect(new Set(texts.map((sent) => sent[0]!.text)).size).toBe(1);
  });
});
