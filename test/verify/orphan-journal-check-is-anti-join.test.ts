/**
 * After a long soak (266,503 operations) `lastro verify` had not ended after five minutes.
 * Its orphan_journal check put NOT EXISTS (payments) under an OR, so PostgreSQL ran it as a subplan
 * once per journal, each a scan of payments: quadratic. Split into two branches it is one anti-join
 * (34 s for the whole verify over 332,011 journals). The plan is what is checked, not a time.
 */
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { INVARIANTS } from '../../src/modules/verify/repo.ts';
import { createTestDatabase } from '../support/database.ts';

const db: Database = await createTestDatabase();
afterAll(() => db.close());

it('finds orphan journals with a join, not a subplan run once per journal', async () => {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${INVARIANTS.orphan_journal}`);
  const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
  expect(plan).toMatch(/Anti Join/);
  expect(plan).not.toMatch(/SubPlan/);
});
