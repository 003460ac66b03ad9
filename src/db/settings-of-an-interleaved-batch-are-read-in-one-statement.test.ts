/**
 * The settings the requests of an interleaved group-commit batch read with gatheredRead go as one
 * statement for all of them, whatever their workspaces, on PostgreSQL (shared-read.ts); on PGlite and
 * Citus each key is read once, by its own statement. Each request gets its own key's rows, and a read
 * that fails fails the attempt: the batch runs again with savepoints, where each reads alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onCitus, onRealPostgres } from '../../test/support/database.ts';
import { recordingDatabase } from '../../test/support/recording-transaction.ts';
import { GroupCommit } from './group-commit.ts';
import { type GatheredRead, gatheredRead } from './shared-read.ts';
import type { Database, Tx } from './types.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.exec(
    `CREATE TABLE gr_settings (key text NOT NULL, fee int NOT NULL);
     INSERT INTO gr_settings VALUES ('a', 7), ('b', 9), ('b', 10), ('z', 0)`,
  );
});
afterAll(() => db.close());

/** Whether batches gather here: on PostgreSQL, not on PGlite nor Citus. */
const gathers = () => onRealPostgres() && !onCitus();

const ALONE = 'SELECT fee FROM gr_settings WHERE key = $1 ORDER BY fee';
const TOGETHER = `SELECT k.ord, s.fee FROM unnest($1::text[]) WITH ORDINALITY AS k (key, ord)
  JOIN gr_settings s ON s.key = k.key ORDER BY s.fee`;

const fees: GatheredRead<string> = {
  alone: (key) => ({ text: ALONE, params: [key] }),
  together: (keys) => ({ text: TOGETHER, params: [keys] }),
  nameOf: (key) => key,
};

/** Runs `reads` as one interleaved batch: a first request holds the lane while they queue. */
async function oneBatch(group: GroupCommit, reads: { key: string; fn: (tx: Tx) => Promise<unknown> }[]) {
  const first = group.run('first', async (tx) => tx.query('SELECT 1'));
  const outcomes = Promise.allSettled(reads.map(({ key, fn }) => group.run(key, fn, { interleave: true })));
  await first;
  return outcomes;
}

const feesOf = (reader: GatheredRead<string>, key: string) => async (tx: Tx) =>
  (await gatheredRead<string, { fee: number }>(tx, reader, key)).map((row) => row.fee);

const values = (outcomes: PromiseSettledResult<unknown>[]) =>
  outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason));

/** What two requests of one batch, asking keys a and b of `reader`, are answered. */
async function feesOfAAndB(reader: GatheredRead<string>) {
  const group = new GroupCommit(db, { lanes: 1 });
  const outcomes = await oneBatch(group, [
    { key: 'a', fn: feesOf(reader, 'a') },
    { key: 'b', fn: feesOf(reader, 'b') },
  ]);
  return values(outcomes);
}

describe('a settings read of an interleaved batch', () => {
  it('goes as one statement for every workspace on PostgreSQL, once a key elsewhere, each request getting its own rows', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: feesOf(fees, 'a') },
      { key: 'b', fn: feesOf(fees, 'b') },
      { key: 'a', fn: feesOf(fees, 'a') },
      { key: 'c', fn: feesOf(fees, 'c') },
    ]);
    expect(values(outcomes)).toEqual([[7], [9, 10], [7], []]);
    if (gathers()) {
      expect(sent.filter((text) => text === TOGETHER)).toHaveLength(1);
      expect(sent).not.toContain(ALONE);
    } else {
      expect(sent.filter((text) => text === ALONE)).toHaveLength(3);
      expect(sent).not.toContain(TOGETHER);
    }
  });

  it('gives the requests that ask the same key the same rows, frozen', async () => {
    const group = new GroupCommit(db, { lanes: 1 });
    const read = async (tx: Tx) => gatheredRead<string, { fee: number }>(tx, fees, 'b');
    const outcomes = await oneBatch(group, [
      { key: 'b', fn: read },
      { key: 'x', fn: read },
    ]);
    const [first, second] = values(outcomes) as { fee: number }[][];
    expect(first).toEqual([{ ...(gathers() ? { ord: 1n } : {}), fee: 9 }, expect.anything()]);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first![0])).toBe(true);
  });

  it('fails the attempt when it fails, and each request then reads alone and gets its own answer', async () => {
    const sent: string[] = [];
    const group = new GroupCommit(recordingDatabase(db, sent), { lanes: 1 });
    // Together the keys reach the row that divides by zero; alone only the request that asks it does.
    const dividing: GatheredRead<string> = {
      alone: (key) => ({ text: 'SELECT 100 / fee AS fee FROM gr_settings WHERE key = $1', params: [key] }),
      together: (keys) => ({
        text: `SELECT k.ord, 100 / s.fee AS fee FROM unnest($1::text[]) WITH ORDINALITY AS k (key, ord)
                 JOIN gr_settings s ON s.key = k.key`,
        params: [keys],
      }),
      nameOf: (key) => key,
    };
    const outcomes = await oneBatch(group, [
      { key: 'a', fn: feesOf(dividing, 'a') },
      { key: 'z', fn: feesOf(dividing, 'z') },
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: [14] });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
  });

  it('fails the attempt when its statement cannot be built, and each request then reads alone', async () => {
    const unbuildable: GatheredRead<string> = {
      ...fees,
      together: () => {
        throw new Error('no statement for these keys');
      },
    };
    expect(await feesOfAAndB(unbuildable)).toEqual([[7], [9, 10]]);
  });

  it('fails the attempt when its rows name no key asked, rather than answering nothing', async () => {
    const unnamed: GatheredRead<string> = {
      ...fees,
      together: (keys) => ({
        text: 'SELECT s.fee FROM gr_settings s WHERE s.key = ANY($1::text[]) ORDER BY s.fee',
        params: [keys],
      }),
    };
    expect(await feesOfAAndB(unnamed)).toEqual([[7], [9, 10]]);
  });

  it('is the key’s own statement outside an interleaved batch', async () => {
    const sent: string[] = [];
    const recording = recordingDatabase(db, sent);
    const read = await recording.transaction((tx) => feesOf(fees, 'b')(tx));
    expect(read).toEqual([9, 10]);
    expect(sent).toEqual([ALONE]);
  });
});
