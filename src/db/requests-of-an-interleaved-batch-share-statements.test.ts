/**
 * An interleaved batch (src/db/group-commit.ts) runs its requests side by side in one transaction
 * without savepoints; they then share statements. What each left held when it ended goes as one
 * statement for the batch (per workspace on Citus, src/db/joined-writes.ts), and settings read with
 * sharedRead are read once for every request that asks the same. Each request still gets its own
 * rows written and its own answer, and a failed attempt writes nothing it held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.ts';
import { recordingDatabase } from '../../test/support/recording-transaction.ts';
import { GroupCommit } from './group-commit.ts';
import { JoinedWrites } from './joined-writes.ts';
import { sharedRead } from './shared-read.ts';
import { type CarriedWrite, chunksOf, type Database, type Tx } from './types.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(
    `CREATE TABLE sb_rows (tag text PRIMARY KEY, n int NOT NULL);
     CREATE TABLE sb_log (tag text);
     CREATE TABLE sb_jobs (tag text);
     CREATE TABLE sb_settings (key text PRIMARY KEY, fee int NOT NULL);
     INSERT INTO sb_settings VALUES ('a', 7), ('b', 9)`,
  );
});
afterAll(() => db.close());

const recording = (sent: string[]) => recordingDatabase(db, sent);

const row = (tag: string, n: number): CarriedWrite => ({
  text: 'INSERT INTO sb_rows (tag, n) VALUES ($1, $2)',
  params: [tag, n],
});
const log = (tag: string): CarriedWrite => ({ text: 'INSERT INTO sb_log (tag) VALUES ($1)', params: [tag] });
const job = (tag: string): CarriedWrite => ({
  text: 'INSERT INTO sb_jobs (tag) VALUES ($1)',
  params: [tag],
  local: true,
});
const written = async (table: 'sb_rows' | 'sb_log' | 'sb_jobs', prefix: string) =>
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
      { key: 'b', fn: hold('held-4') },
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual([
      'held-1',
      'held-2',
      'held-3',
      'held-4',
    ]);
    expect(await written('sb_rows', 'held-')).toEqual(['held-1', 'held-2', 'held-3', 'held-4']);
    expect(await written('sb_log', 'held-')).toEqual(['held-1', 'held-2', 'held-3', 'held-4']);
    expect(sent.filter((text) => text.includes('sb_rows'))).toHaveLength(1);
  });

  it('sends the jobs its requests queued as one statement, even those queued before a read', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recording(sent), { lanes: 1 });
    const queue = (tag: string) => async (tx: Tx) => {
      tx.hold(job(tag));
      await tx.query('SELECT 1');
      tx.hold(row(tag, 1));
      return tag;
    };
    await oneBatch(group, [
      { key: 'a', fn: queue('jobs-1') },
      { key: 'b', fn: queue('jobs-2') },
    ]);
    expect(await written('sb_jobs', 'jobs-')).toEqual(['jobs-1', 'jobs-2']);
    expect(await written('sb_rows', 'jobs-')).toEqual(['jobs-1', 'jobs-2']);
    expect(sent.filter((text) => text.includes('sb_jobs'))).toHaveLength(1);
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

  it('answers a shared read that failed to every request that shared it', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const read = async (tx: Tx) =>
      sharedRead(tx, 'SELECT fee / 0 AS fee FROM sb_settings WHERE key = $1', ['a']);
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: read },
      { key: 'a', fn: read },
    ]);
    // Both fail together, then again each in its own savepoint: the error is each one's own.
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes)
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
  });

  it('gives every request the same rows, frozen', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const read = async (tx: Tx) =>
      (await sharedRead<{ fee: number }>(tx, 'SELECT fee FROM sb_settings WHERE key = $1', ['b'])).rows[0]!;
    const outcomes = await oneBatch(group, [
      { key: 'b', fn: read },
      { key: 'b', fn: read },
    ]);
    const [first, second] = outcomes.map((o) => (o as PromiseFulfilledResult<{ fee: number }>).value);
    expect(first).toBe(second);
    expect(Object.isFrozen(first)).toBe(true);
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

describe('a write held for the coordinator (local)', () => {
  it('waits for the transaction’s end, not its next statement, and commits with it', async () => {
    const seen = await db.transaction(async (tx) => {
      tx.hold(job('local-1'), row('local-1', 1));
      const { rows } = await tx.query<{ jobs: number; rows: number }>(
        "SELECT (SELECT count(*)::int FROM sb_jobs WHERE tag = 'local-1') AS jobs, (SELECT count(*)::int FROM sb_rows WHERE tag = 'local-1') AS rows",
      );
      return rows[0];
    });
    expect(seen).toEqual({ jobs: 0, rows: 1 });
    expect(await written('sb_jobs', 'local-')).toEqual(['local-1']);
  });

  it('is committed with its request in a savepoint batch, and not with a request that failed', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const queue = (tag: string, fails: boolean) => async (tx: Tx) => {
      tx.hold(job(tag));
      await tx.query('SELECT 1');
      if (fails) throw new Error(`${tag} refused`);
      return tag;
    };
    const first = group.run('first', async (tx) => tx.query('SELECT 1'));
    const outcomes = Promise.allSettled([
      group.run('a', queue('saved-1', false)),
      group.run('a', queue('saved-2', true)),
      group.run('a', queue('saved-3', false)),
    ]);
    await first;
    expect((await outcomes).map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await written('sb_jobs', 'saved-')).toEqual(['saved-1', 'saved-3']);
  });

  it('is never committed when its transaction fails', async () => {
    await expect(
      db.transaction(async (tx) => {
        tx.hold(job('lost-1'));
        await tx.query('SELECT 1');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await written('sb_jobs', 'lost-')).toEqual([]);
  });
});

describe('JoinedWrites', () => {
  /** A transaction that only writes down what is sent to it. */
  const recorder = () => {
    const sent: { text: string; params: readonly unknown[] }[] = [];
    const tx = {
      later: (text: string, params: readonly unknown[]) => sent.push({ text, params }),
    } as unknown as Tx;
    return { sent, tx };
  };
  const statements = (acrossKeys: boolean, order: string[]) => {
    const { sent, tx } = recorder();
    const joined = new JoinedWrites(acrossKeys, acrossKeys);
    for (const key of order) joined.add(tx, key, key === 'b' ? [log(key)] : [row(key, 1), log(key)]);
    joined.send(tx);
    return sent;
  };

  it('joins one workspace’s writes alone when statements may not cross workspaces (Citus)', () => {
    const sent = statements(false, ['a', 'b', 'a']);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.params).toEqual(['a', 1, 'a', 'a', 1, 'a']);
    expect(sent[1]!.params).toEqual(['b']);
  });

  it('joins the coordinator’s writes of every workspace apart from the workspaces’ rows (Citus)', () => {
    const { sent, tx } = recorder();
    const joined = new JoinedWrites(false, false);
    joined.add(tx, 'a', [row('a', 1), job('a')]);
    joined.add(tx, 'b', [job('b'), log('b')]);
    joined.send(tx);
    expect(sent.map((statement) => statement.params)).toEqual(
      expect.arrayContaining([['a', 1], ['a', 'b'], ['b']]),
    );
    expect(sent).toHaveLength(3);
    const jobs = sent.find((statement) => statement.text.includes('sb_jobs'))!;
    expect(jobs.params).toEqual(['a', 'b']);
    expect(jobs.text).not.toMatch(/sb_rows|sb_log/);
  });

  it('sends the same texts whatever order the requests ended in', () => {
    const texts = [
      ['a', 'b', 'c', 'd', 'e'],
      ['b', 'e', 'c', 'a', 'd'],
      ['e', 'd', 'c', 'b', 'a'],
    ].map((order) => statements(true, order).map((statement) => statement.text));
    expect(texts[0]).toHaveLength(2); // 4 + 1 requests
    expect(texts[1]).toEqual(texts[0]);
    expect(texts[2]).toEqual(texts[0]);
  });

  it('joins each kind of request apart, so a mix of kinds leaves no text of its own', () => {
    const { sent, tx } = recorder();
    const joined = new JoinedWrites(true, true);
    for (const tag of ['x1', 'y1', 'x2', 'y2', 'x3']) {
      joined.add(tx, 'a', tag.startsWith('x') ? [row(tag, 1), log(tag)] : [log(tag)]);
    }
    joined.send(tx);
    // y: one chunk of 2; x: chunks of 2 and 1. No statement mixes the kinds.
    expect(sent.map((statement) => statement.params)).toEqual([
      ['y1', 'y2'],
      ['x1', 1, 'x1', 'x2', 1, 'x2'],
      ['x3', 1, 'x3'],
    ]);
  });

  it('sends a request that holds anything but an INSERT alone, at once', () => {
    const { sent, tx } = recorder();
    const joined = new JoinedWrites(true, true);
    const update: CarriedWrite = { text: 'UPDATE sb_rows SET n = n + 1 WHERE tag = $1', params: ['u'] };
    joined.add(tx, 'a', [row('a', 1)]);
    joined.add(tx, 'a', [update, log('u')]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toEqual(['u', 'u']);
    joined.add(tx, 'a', [row('c', 1)]);
    joined.send(tx);
    expect(sent.map((statement) => statement.params)).toEqual([
      ['u', 'u'],
      ['a', 1, 'c', 1],
    ]);
  });

  it('cuts a group into chunks of a power of two, largest first, each under the parameter bound', () => {
    const lists = (n: number, params: number) =>
      Array.from({ length: n }, () => [{ params: Array.from({ length: params }, () => 0) }]);
    expect(chunksOf(lists(11, 4)).map((chunk) => chunk.length)).toEqual([8, 2, 1]);
    expect(chunksOf(lists(32, 4)).map((chunk) => chunk.length)).toEqual([32]);
    expect(chunksOf(lists(1, 4)).map((chunk) => chunk.length)).toEqual([1]);
    // 16 lists of 1,500 parameters pass 16,000: the chunks halve until they fit.
    expect(chunksOf(lists(16, 1_500)).map((chunk) => chunk.length)).toEqual([8, 8]);
    expect(chunksOf(lists(2, 20_000)).map((chunk) => chunk.length)).toEqual([1, 1]);
  });
});
