/**
 * createPayment answers with the row it sent rather than reading it back: that row must be what a
 * later read of the table returns, key order of its JSON included, for any metadata and counterparty
 * and for ids sent in upper case.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../../test/ledger/helpers.ts';
import { createTestDatabase } from '../../../test/support/database.ts';
import type { Database } from '../../db/types.ts';
import { newId } from '../../platform/ids.ts';
import { jsonbOrdered } from './repo.ts';
import { createPayment, findPayment, paymentView } from './service.ts';

let db: Database;
let workspaceId: string;
let partyId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const seeded = await seedWorkspace(db);
  workspaceId = seeded.workspaceId;
  partyId = seeded.parties[0]!;
});
afterAll(() => db.close());

const jsonKey = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('10', '2', 'a', 'ab', 'B', 'é', 'ç', '€', '__proto__'),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 8 }).filter((text) => !text.includes('\u0000')),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(jsonKey, tie('value'), { maxKeys: 4 }),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe('a created payment', () => {
  it('is answered as the table keeps it, JSON key order and id case included', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, jsonValue, fc.boolean(), async (metadata, counterparty, upper) => {
        const id = newId();
        const created = await db.transaction((tx) =>
          createPayment(tx, {
            id: upper ? id.toUpperCase() : id,
            workspace_id: workspaceId,
            environment: 'sandbox',
            party_id: upper ? partyId.toUpperCase() : partyId,
            kind: 'pix_cash_in',
            amount_minor: 1234n,
            currency: 'BRL',
            description: 'row check',
            metadata,
            counterparty,
            related_payment_id: upper ? id.toUpperCase() : id,
            expires_at: new Date('2026-11-30T12:00:00.123Z'),
          }),
        );
        const read = await findPayment(db, { workspaceId, environment: 'sandbox' }, id);
        expect(read).toBeDefined();
        // Compared as text: the same values with their keys in the same order.
        expect(JSON.stringify(created)).toBe(JSON.stringify(paymentView(read!)));
      }),
      { numRuns: 60 },
    );
  });

  it('orders object keys as jsonb does: shorter first, then byte by byte', () => {
    expect(Object.keys(jsonbOrdered({ bb: 1, a: 2, c: 3, é: 4, ab: 5 }) as object)).toEqual([
      'a',
      'c',
      'ab',
      'bb',
      'é',
    ]);
  });
});
