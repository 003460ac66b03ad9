/**
 * The daily report's payment sums find a range's payments by completed_at through an index, instead
 * of reading every payment of the workspace and filtering: the chart stays cheap as payments pile up.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/types.ts';
import { dailyPaymentTotals } from '../../src/modules/payments/daily-repo.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('a day range is looked up by completed_at in an index', async () => {
  const plan = await ctx.db.transaction(async (tx) => {
    // An empty table is always cheapest read whole; this asks what an index can do for the query.
    await tx.query('SET LOCAL enable_seqscan = off');
    const explain: Queryable = {
      query: (text, params) => tx.query(`EXPLAIN ${text}`, params),
      exec: (sql) => tx.exec(sql),
    };
    const rows = (await dailyPaymentTotals(
      explain,
      { workspaceId: '01890000-0000-7000-8000-000000000000', environment: 'sandbox' },
      {
        partyId: null,
        from: new Date('2026-11-01T03:00:00Z'),
        to: new Date('2026-11-15T03:00:00Z'),
        zone: 'America/Sao_Paulo',
        currency: 'BRL',
      },
    )) as unknown as Record<string, string>[];
    return rows.map((row) => Object.values(row)[0]).join('\n');
  });
  expect(plan).toMatch(/Index Cond: .*completed_at/);
});
