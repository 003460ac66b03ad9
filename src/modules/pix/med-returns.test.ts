import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payDown, splitReturn } from './med-returns.ts';

const amount = fc.bigInt({ min: 1n, max: 10n ** 15n });
const balance = fc.bigInt({ min: 0n, max: 10n ** 15n });

describe('MED return arithmetic', () => {
  it('a return is taken whole: what the balance gives plus what is owed, never more than the balance', () => {
    fc.assert(
      fc.property(amount, balance, (returned, available) => {
        const { taken, shortfall } = splitReturn(returned, available);
        expect(taken + shortfall).toBe(returned);
        expect(taken >= 0n && shortfall >= 0n).toBe(true);
        expect(taken <= available).toBe(true);
        // Owed only when the balance is gone.
        if (shortfall > 0n) expect(taken).toBe(available);
      }),
    );
  });

  it('credits pay debts oldest first, never more than credited nor than owed', () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 8 }), balance, (owed, available) => {
        const after = payDown(owed, available);
        const paid = owed.map((o, i) => o - after[i]!);
        const total = paid.reduce((a, b) => a + b, 0n);
        const debt = owed.reduce((a, b) => a + b, 0n);
        expect(total).toBe(available < debt ? available : debt);
        for (const [i, left] of after.entries()) {
          expect(left >= 0n && left <= owed[i]!).toBe(true);
          // A later debt is paid only once every earlier one is.
          if (paid[i]! > 0n) for (let j = 0; j < i; j++) expect(after[j]).toBe(0n);
        }
      }),
    );
  });

  it('a debt paid in many credits ends where one credit of their sum would', () => {
    fc.assert(
      fc.property(
        fc.array(amount, { maxLength: 5 }),
        fc.array(balance, { maxLength: 5 }),
        (owed, credits) => {
          let left = owed;
          for (const credit of credits) left = payDown(left, credit);
          const sum = credits.reduce((a, b) => a + b, 0n);
          expect(left).toEqual(payDown(owed, sum));
        },
      ),
    );
  });
});
