/**
 * The rails list (src/platform/rails.ts) is where a rail's kinds, accounts and route groups are
 * declared; what cannot be derived from it is checked against it here, so a rail added to the list
 * but not to the database, the verify rules or the dashboard fails a test rather than a payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as generated from '../../packages/sdk/src/generated.ts';
import type { Database } from '../../src/db/types.ts';
import { PAYMENT_RULES } from '../../src/modules/verify/payment-rules.ts';
import { ACTING_GROUPS, PAYMENT_KINDS, RAILS, railOf, SYSTEM_KINDS } from '../../src/platform/rails.ts';
import { PT } from '../../web/dashboard/src/pt.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

/** The quoted values of the CHECK constraint of `table` that names `column`. */
async function checkedValues(table: string, column: string): Promise<string[]> {
  const { rows } = await db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE $2`,
    [table, `%(${column} %`],
  );
  expect(rows).toHaveLength(1);
  return [...rows[0]!.def.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!);
}

describe('the rails list', () => {
  it('names every payment kind the database accepts, and no other', async () => {
    expect((await checkedValues('payments', 'kind')).sort()).toEqual([...PAYMENT_KINDS].sort());
  });

  it('gives each payment kind one rail and each rail its own settlement account', () => {
    for (const kind of PAYMENT_KINDS) expect(Object.keys(RAILS)).toContain(railOf(kind));
    expect(new Set(PAYMENT_KINDS).size).toBe(PAYMENT_KINDS.length);
    const accounts = Object.values(RAILS).map((rail) => rail.settlementAccount);
    expect(new Set(accounts).size).toBe(accounts.length);
    for (const account of accounts) expect(SYSTEM_KINDS).toContain(account);
  });

  it('has a verify rule for every payment kind', () => {
    expect(Object.keys(PAYMENT_RULES).sort()).toEqual([...PAYMENT_KINDS].sort());
  });

  it('is what the SDK and the dashboard were generated with', () => {
    expect(generated.PAYMENT_KINDS).toEqual(PAYMENT_KINDS);
    expect(generated.ACTING_GROUPS).toEqual(ACTING_GROUPS);
  });

  it('has a Portuguese label for every payment kind on the dashboard', () => {
    expect(PAYMENT_KINDS.filter((kind) => !(kind in PT))).toEqual([]);
  });
});
