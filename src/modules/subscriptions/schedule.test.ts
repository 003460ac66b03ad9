import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  CHARGE_WINDOW_DAYS,
  chargeDateOf,
  dueDateOf,
  FREQUENCIES,
  insideChargeWindow,
  retryDateOf,
} from './schedule.ts';

const day = fc
  .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

describe('the subscription calendar', () => {
  it('sends every cycle’s charge inside the BCB’s 2-to-10-day window before its due date', () => {
    fc.assert(
      fc.property(
        day,
        fc.constantFrom(...FREQUENCIES),
        fc.integer({ min: 1, max: 120 }),
        (start, frequency, n) => {
          const due = dueDateOf(start, frequency, n);
          const lead = daysBetween(chargeDateOf(due), due);
          expect(lead).toBeGreaterThanOrEqual(CHARGE_WINDOW_DAYS.latest);
          expect(lead).toBeLessThanOrEqual(CHARGE_WINDOW_DAYS.earliest);
          expect(insideChargeWindow(chargeDateOf(due), due)).toBe(true);
        },
      ),
    );
  });

  it('gives each cycle a due date after the one before', () => {
    fc.assert(
      fc.property(
        day,
        fc.constantFrom(...FREQUENCIES),
        fc.integer({ min: 1, max: 120 }),
        (start, frequency, n) => {
          expect(dueDateOf(start, frequency, n + 1) > dueDateOf(start, frequency, n)).toBe(true);
        },
      ),
    );
  });

  it('keeps the day of the month, or the month’s last day when it is shorter', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(dueDateOf('2027-01-31', 'monthly', 3)).toBe('2027-03-31');
    expect(dueDateOf('2027-01-10', 'quarterly', 2)).toBe('2027-04-10');
    expect(dueDateOf('2027-01-10', 'weekly', 3)).toBe('2027-01-24');
    expect(addDays('2027-12-30', 5)).toBe('2028-01-04');
  });

  it('retries only under PERMITE_3R_7D, at most 3 times, within 7 days of the due date', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 6 }), (due, attempts) => {
        expect(retryDateOf(due, 'none', attempts)).toBeNull();
        const retry = retryDateOf(due, 'three_in_seven_days', attempts);
        if (attempts > 3) expect(retry).toBeNull();
        else expect(daysBetween(due, retry!)).toBeLessThanOrEqual(7);
      }),
    );
  });
});
