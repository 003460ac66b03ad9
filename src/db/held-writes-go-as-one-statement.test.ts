/**
 * Tx.hold(): writes kept until the handle's next statement and sent then as one statement. They must
 * land exactly as if each had been sent alone (same values in the same columns), before anything the
 * same handle sends after them, and never for a request of a group-commit batch that failed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/database.ts';
import { GroupCommit } from './group-commit.ts';
import { type CarriedWrite, type Database, joinWrites, requestScope, type Tx } from './types.ts';

/** The text with each placeholder replaced by the value it stands for. */
const resolved = ({ text, params }: CarriedWrite) =>
  text.replace(/\$(\d+)/g, (_, n) => `<${String(params[Number(n) - 1])}>`);

describe('joinWrites', () => {
  it('gives every placeholder of every write the value it had alone', () => {
    const write = fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 12 }).chain((params) =>
      fc.array(fc.integer({ min: 1, max: params.length }), { minLength: 1, maxLength: 15 }).map(
        (refs): CarriedWrite => ({
          text: `INSERT INTO t VALUES (${refs.map((n) => `$${n}`).join(', ')})`,
          params,
        }),
      ),
    );
    fc.assert(
      fc.property(fc.array(write, { minLength: 1, maxLength: 6 }), (writes) => {
        const joined = joinWrites(writes);
        const alone = writes.map(resolved);
        const last = alone.pop()!;
        const expected =
          alone.length === 0 ? last : `WITH ${alone.map((r, i) => `w${i} AS (${r})`).join(', ')} ${last}`;
        expect(resolved(joined)).toBe(expected);
        expect(joined.params).toEqual(writes.flatMap((w) => w.params));
      }),
    );
  });

  it('numbers the same texts again when their writes carry other numbers of parameters', () => {
    const first = (params: unknown[]): CarriedWrite => ({ text: 'INSERT INTO a VALUES ($1)', params });
    const second: CarriedWrite = { text: 'INSERT INTO b VALUES ($1, $2)', params: ['x', 'y'] };
    expect(joinWrites([first([1]), second]).text).toBe(
      'WITH w0 AS (INSERT INTO a VALUES ($1)) INSERT INTO b VALUES ($2, $3)',
    );
    const wider = joinWrites([first([1, 2, 3]), second]);
    expect(wider.text).toBe('WITH w0 AS (INSERT INTO a VALUES ($1)) INSERT INTO b VALUES ($4, $5)');
    expect(wider.params).toEqual([1, 2, 3, 'x', 'y']);
    expect(joinWrites([first([1]), second]).text).toContain('VALUES ($2, $3)');
  });
});

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(
    'CREATE TABLE hw_rows (tag text PRIMARY KEY, n int NOT NULL); CREATE TABLE hw_log (tag text)',
  );
});
afterAll(() => db.close());

const row = (tag: string, n: number): CarriedWrite => ({
  text: 'INSERT INTO hw_rows (tag, n) VALUES ($1, $2)',
  params: [tag, n],
});
const log = (tag: string): CarriedWrite => ({ text: 'INSERT INTO hw_log (tag) VALUES ($1)', params: [tag] });
const tags = async (table: 'hw_rows' | 'hw_log') =>
  (await db.query<{ tag: string }>(`SELECT tag FROM ${table} ORDER BY tag`)).rows.map((r) => r.tag);

describe('Tx.hold', () => {
  it('sends what it holds before the next statement, which reads it, and with settle before COMMIT', async () => {
    const seen = await db.transaction(async (tx) => {
      tx.hold(row('a', 1), log('a'));
      tx.hold(row('b', 2));
      const { rows } = await tx.query<{ n: number }>('SELECT sum(n)::int AS n FROM hw_rows');
      tx.hold(row('c', 3), log('c'));
      return rows[0]!.n;
    });
    expect(seen).toBe(3);
    expect(await tags('hw_rows')).toEqual(['a', 'b', 'c']);
    expect(await tags('hw_log')).toEqual(['a', 'c']);
  });

  it('joins a request’s held writes into one statement, apart from every other request’s', async () => {
    const sent: string[] = [];
    const recording = {
      later: (text: string) => sent.push(text),
    } as unknown as Tx;
    const first = requestScope(recording);
    const second = requestScope(recording);
    first.tx.hold(row('x', 1));
    second.tx.hold(row('y', 1));
    first.tx.hold(log('x'));
    second.done();
    first.done();
    expect(sent).toEqual([
      row('y', 1).text,
      `WITH w0 AS (${row('x', 1).text}) ${log('x').text.replace('$1', '$3')}`,
    ]);
  });

  for (const interleave of [true, false]) {
    it(`a failed request of a batch sends none of what it held (${interleave ? 'interleaved' : 'savepoints'})`, async () => {
      const group = new GroupCommit(db, { lanes: 1 });
      const write = (tag: string, fails: boolean) => async (tx: Tx) => {
        tx.hold(row(`${tag}`, 1), log(tag));
        await tx.query('SELECT 1');
        tx.hold(log(`${tag}-after`));
        if (fails) throw new Error(`${tag} refused`);
        return tag;
      };
      const outcomes = await Promise.allSettled(
        ['ok1', 'bad', 'ok2'].map((tag) =>
          group.run('k', write(`${interleave}-${tag}`, tag === 'bad'), { interleave }),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const written = (await tags('hw_log')).filter((tag) => tag.startsWith(`${interleave}-`));
      expect(written).toEqual([
        `${interleave}-ok1`,
        `${interleave}-ok1-after`,
        `${interleave}-ok2`,
        `${interleave}-ok2-after`,
      ]);
    });
  }
});
