/**
 * The sweeps read set_aside_items and jobs in statements of their own, never joined to a tenant's
 * table (on Citus those two stay on the coordinator and such a statement is refused): the keys a
 * sweep leaves out, the subjects whose jobs gave up, and the closing of items settled elsewhere,
 * which goes through every open due item however many there are.
 */
import { afterAll, expect, it } from 'vitest';
import { parkedSubjects } from '../../src/platform/jobs.ts';
import { closeSettledElsewhere, waitingSetAside } from '../../src/platform/set-aside.ts';
import { createTestDatabase } from '../support/database.ts';

const db = await createTestDatabase();
afterAll(() => db.close());

const NOW = new Date('2030-01-01T12:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

async function addItems(source: string, keys: string[], retryAt: Date, resolvedAt: Date | null = null) {
  await db.query(
    `INSERT INTO set_aside_items (source, item_key, payload, error, first_failed_at, last_failed_at, retry_at, resolved_at)
     SELECT $1, key, '{}', 'failed', $2, $2, $3, $4 FROM unnest($5::text[]) AS key`,
    [source, minutes(-60), retryAt, resolvedAt, keys],
  );
}

const openKeys = async (source: string) =>
  (
    await db.query<{ item_key: string }>(
      'SELECT item_key FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL ORDER BY item_key',
      [source],
    )
  ).rows.map((row) => row.item_key);

it('a sweep leaves out only the open items whose retry is not yet due', async () => {
  await addItems('waiting', ['later'], minutes(5));
  await addItems('waiting', ['due'], minutes(-1));
  await addItems('waiting', ['closed'], minutes(5), minutes(-2));
  await addItems('other-source', ['elsewhere'], minutes(5));
  expect(await waitingSetAside(db, 'waiting', NOW)).toEqual(['later']);
  expect(await waitingSetAside(db, 'empty', NOW)).toEqual([]);
});

it('closes every due item no longer pending, past the first batch, and no other', async () => {
  const keys = Array.from({ length: 1200 }, (_, i) => `item-${String(i).padStart(4, '0')}`);
  await addItems('settled', keys, minutes(-1));
  await addItems('settled', ['not-due-yet'], minutes(5));
  const pending = new Set(keys.filter((_, i) => i % 7 === 0));
  const asked: number[] = [];
  await closeSettledElsewhere(
    db,
    'settled',
    async (batch) => {
      asked.push(batch.length);
      return batch.filter((key) => pending.has(key));
    },
    NOW,
  );
  expect(asked.reduce((a, b) => a + b, 0)).toBe(1200);
  expect(asked.length).toBeGreaterThan(1);
  expect(await openKeys('settled')).toEqual([...[...pending].sort(), 'not-due-yet'].sort());
  const { rows } = await db.query<{ resolution: string; n: number }>(
    `SELECT resolution, count(*)::int AS n FROM set_aside_items
      WHERE source = 'settled' AND resolved_at = $1 GROUP BY resolution`,
    [NOW],
  );
  expect(rows).toEqual([{ resolution: 'retried', n: 1200 - pending.size }]);
});

async function addJob(subject: string, state: { doneAt?: Date; failedAt?: Date }) {
  await db.query(
    `INSERT INTO jobs (id, kind, payload, run_at, done_at, failed_at, attempts, subject_id)
     VALUES (gen_random_uuid(), 'test.send', '{}', $1, $2, $3, 1, $4)`,
    [minutes(-120), state.doneAt ?? null, state.failedAt ?? null, subject],
  );
}

it('a subject counts as given up on once all its jobs ended and one was parked before the bound', async () => {
  await addJob('parked', { doneAt: minutes(-30), failedAt: minutes(-30) });
  await addJob('parked', { doneAt: minutes(-90) });
  await addJob('parked-and-running', { doneAt: minutes(-30), failedAt: minutes(-30) });
  await addJob('parked-and-running', {});
  await addJob('parked-too-recently', { doneAt: minutes(-5), failedAt: minutes(-5) });
  await addJob('done', { doneAt: minutes(-30) });
  const subjects = ['parked', 'parked-and-running', 'parked-too-recently', 'done', 'no-jobs'];
  expect(await parkedSubjects(db, subjects, minutes(-10))).toEqual(['parked']);
  expect(await parkedSubjects(db, [], minutes(-10))).toEqual([]);
});
