/**
 * The due-date charge validator: whatever the terms, it either accepts them or refuses with 400
 * invalid_request naming a field of the body; never another error. Accepted terms never price the
 * charge below zero on any day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { amountDue } from './due-amount.ts';
import { validateDueCharge } from './due-terms.ts';

const percent = fc
  .integer({ min: 0, max: 20_000 })
  .map((h) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`);
const minor = fc.bigInt({ min: 0n, max: 20_000n }).map(String);
const part = fc.record(
  { modality: fc.integer({ min: 1, max: 8 }), value_minor: minor, percent },
  { requiredKeys: ['modality'] },
);
const date = fc
  .integer({ min: 0, max: 40 })
  .map((d) => new Date(Date.UTC(2026, 5, 1 + d)).toISOString().slice(0, 10));
const discount = fc.record(
  {
    modality: fc.integer({ min: 1, max: 6 }),
    value_minor: minor,
    percent,
    dates: fc.array(fc.record({ date, value_minor: minor, percent }, { requiredKeys: ['date'] }), {
      minLength: 0,
      maxLength: 3,
    }),
  },
  { requiredKeys: ['modality'] },
);

describe('validateDueCharge', () => {
  it('accepts or refuses with invalid_request on a body field, and what it accepts never prices below zero', () => {
    fc.assert(
      fc.property(
        fc.record({ fine: part, interest: part, rebate: part, discount }, { requiredKeys: [] }),
        date,
        (terms, due) => {
          const input = {
            amount_minor: '10000',
            due_date: due,
            debtor: { name: 'Ana', document: '52998224725' },
            ...terms,
          };
          let checked: ReturnType<typeof validateDueCharge>;
          try {
            checked = validateDueCharge(input, '2026-06-01');
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).code).toBe('invalid_request');
            expect((error as AppError).details?.[0]?.field).toMatch(/^body\./);
            return;
          }
          for (const day of ['2026-05-20', due, '2026-08-01']) {
            const due_ = amountDue({ nominalMinor: checked.amount, dueDate: due, terms: checked.terms }, day);
            expect(due_.total_minor >= 0n).toBe(true);
            expect(due_.rebate_minor < checked.amount).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
