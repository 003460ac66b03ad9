/**
 * Under a soak, every round of the ledger sealer compared its window of journals against
 * all of ledger_seals (NOT EXISTS with no bound on the seals' side), which PostgreSQL ran as a hash
 * anti-join over a full scan of the seals, several rounds a second: ≈ 100 ms of CPU a round at
 * 200,000 seals, growing with the books. The seals' side now carries the round's floor too, which
 * lets PostgreSQL read only the window's seals by index range (on the soak's database: a merge
 * anti-join, 48 ms against 111 ms). The plan is checked for the bound, not for a time.
 */
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { UNSEALED_SQL, uuidv7Floor } from '../../src/ledger/seal.ts';
import { createTestDatabase } from '../support/database.ts';

const db: Database = await createTestDatabase();
afterAll(() => db.close());

it('bounds the seals a round compares against by the round’s floor', async () => {
  const floor = `'${uuidv7Floor(Date.now() - 30_000)}'::uuid`;
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN ${UNSEALED_SQL.replaceAll('$1', floor).replaceAll('$2', "'{}'")}`,
  );
  const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
  expect(plan).toMatch(/ledger_seals/);
  expect(plan).toMatch(/journal_id >= /);
});
