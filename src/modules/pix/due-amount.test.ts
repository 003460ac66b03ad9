/**
 * amountDue against a computation written again here, the plain way: every part as an exact
 * fraction of centavos, rounded half up by comparing the remainder, days counted by walking the
 * calendar one day at a time. Plus hand examples from the guide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountDue, type DueCharge, type DueTerms, lastPayableDate } from './due-amount.ts';

/** n / d rounded half up, for n, d ≥ 0. */
function roundHalfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  return (n % d) * 2n >= d ? q + 1n : q;
}

/** Days from a to b by stepping one calendar day at a time (a ≤ b). */
function walk(a: string, b: string): number {
  let days = 0;
  const at = new Date(`${a}T12:00:00Z`);
  while (at.toISOString().slice(0, 10) < b) {
    at.setUTCDate(at.getUTCDate() + 1);
    days++;
  }
  return days;
}

const hundredths = (percent: string) => BigInt(percent.replace('.', ''));

function reference(charge: DueCharge, pay: string): bigint {
  const base = charge.nominalMinor;
  const { fine, interest, rebate, discount } = charge.terms;
  const pct = (p: string, num: bigint, den: bigint) => roundHalfUp(base * hundredths(p) * num, 10_000n * den);
  let total = base;
  if (rebate) total -= rebate.modality === 1 ? BigInt(rebate.value_minor!) : pct(rebate.percent!, 1n, 1n);
  if (pay > charge.dueDate) {
    const late = BigInt(walk(charge.dueDate, pay));
    if (fine) total += fine.modality === 1 ? BigInt(fine.value_minor!) : pct(fine.percent!, 1n, 1n);
    if (interest) {
      if (interest.modality === 1) total += BigInt(interest.value_minor!) * late;
      else total += pct(interest.percent!, late, { 2: 1n, 3: 30n, 4: 365n }[interest.modality as 2 | 3 | 4]);
    }
  } else if (discount) {
    const ahead = BigInt(walk(pay, charge.dueDate));
    if (discount.modality === 3) total -= BigInt(discount.value_minor!) * ahead;
    else if (discount.modality === 5) total -= pct(discount.percent!, ahead, 1n);
    else {
      const candidates = discount.dates!.filter((d) => d.date >= pay).map((d) => d.date);
      const first = candidates.length ? candidates.reduce((a, b) => (a < b ? a : b)) : undefined;
      const entry = discount.dates!.find((d) => d.date === first);
      if (entry)
        total -= entry.value_minor !== undefined ? BigInt(entry.value_minor) : pct(entry.percent!, 1n, 1n);
    }
  }
  return total < 0n ? 0n : total;
}

const day = (offset: number) =>
  new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
const percent = fc
  .integer({ min: 1, max: 9_999 })
  .map((h) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`);
const minor = fc.bigInt({ min: 1n, max: 10_000_000n }).map(String);
const part = (
  modalities: number[],
): fc.Arbitrary<{ modality: number; value_minor?: string; percent?: string }> =>
  fc
    .constantFrom(...modalities)
    .chain(
      (modality): fc.Arbitrary<{ modality: number; value_minor?: string; percent?: string }> =>
        modality === 1
          ? minor.map((value_minor) => ({ modality, value_minor }))
          : percent.map((p) => ({ modality, percent: p })),
    );
const terms = fc.record(
  {
    fine: part([1, 2]),
    interest: part([1, 2, 3, 4]),
    rebate: part([1, 2]),
    discount: fc.oneof(
      fc.constantFrom(3).chain((modality) => minor.map((value_minor) => ({ modality, value_minor }))),
      fc.constantFrom(5).chain((modality) => percent.map((p) => ({ modality, percent: p }))),
      fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 3 }).chain((offsets) =>
        fc.oneof(
          fc.tuple(...offsets.map(() => minor)).map((values) => ({
            modality: 1,
            dates: offsets.map((o, i) => ({ date: day(o), value_minor: values[i]! })),
          })),
          fc.tuple(...offsets.map(() => percent)).map((values) => ({
            modality: 2,
            dates: offsets.map((o, i) => ({ date: day(o), percent: values[i]! })),
          })),
        ),
      ),
    ),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<DueTerms>;

describe('amountDue', () => {
  it('matches the plain computation for any terms and any pay date', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 999_999_999_999n }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 900 }),
        terms,
        (nominal, due, pay, t) => {
          const charge = { nominalMinor: nominal, dueDate: day(due), terms: t };
          const got = amountDue(charge, day(pay));
          expect(got.total_minor).toBe(reference(charge, day(pay)));
          expect(got.total_minor >= 0n).toBe(true);
          const sum =
            got.original_minor + got.fine_minor + got.interest_minor - got.rebate_minor - got.discount_minor;
          expect(got.total_minor).toBe(sum < 0n ? 0n : sum);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is the original on the due day without terms, and never grows before the due date', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 300 }),
        (nominal, ahead) => {
          const charge = {
            nominalMinor: nominal,
            dueDate: day(300),
            terms: { fine: { modality: 2, percent: '2.00' } },
          };
          expect(amountDue(charge, day(300 - ahead)).total_minor).toBe(nominal);
        },
      ),
    );
  });

  it('hand examples: R$ 123.45 with 15 % fine, 2 % a day, 30.00 off until a date (the standard’s cobBody1)', () => {
    const charge: DueCharge = {
      nominalMinor: 12345n,
      dueDate: '2020-12-31',
      terms: {
        fine: { modality: 2, percent: '15.00' },
        interest: { modality: 2, percent: '2.00' },
        discount: { modality: 1, dates: [{ date: '2020-11-30', value_minor: '3000' }] },
      },
    };
    expect(amountDue(charge, '2020-11-30').total_minor).toBe(9345n);
    expect(amountDue(charge, '2020-12-01').total_minor).toBe(12345n);
    expect(amountDue(charge, '2020-12-31').total_minor).toBe(12345n);
    // One day late: 15 % of 123.45 = 18.5175 → 18.52; 2 % = 2.469 → 2.47.
    expect(amountDue(charge, '2021-01-01')).toMatchObject({
      fine_minor: 1852n,
      interest_minor: 247n,
      total_minor: 14444n,
    });
    // Ten days late: interest 24.69.
    expect(amountDue(charge, '2021-01-10')).toMatchObject({ interest_minor: 2469n, total_minor: 16666n });
  });

  it('hand examples: per-month and per-year interest, a rebate, and never below zero', () => {
    const monthly = {
      nominalMinor: 10000n,
      dueDate: '2026-03-01',
      terms: { interest: { modality: 3, percent: '1.00' } },
    };
    // 1 % a month for 15 days = 0.5 % of 100.00 = 0.50.
    expect(amountDue(monthly, '2026-03-16').interest_minor).toBe(50n);
    const yearly = {
      nominalMinor: 10000n,
      dueDate: '2026-03-01',
      terms: { interest: { modality: 4, percent: '12.00' } },
    };
    // 12 % a year for 10 days: 100.00 × 0.12 × 10 / 365 = 0.3287… → 0.33.
    expect(amountDue(yearly, '2026-03-11').interest_minor).toBe(33n);
    const deep = {
      nominalMinor: 1000n,
      dueDate: '2026-03-01',
      terms: { rebate: { modality: 2, percent: '60.00' }, discount: { modality: 3, value_minor: '100' } },
    };
    expect(amountDue(deep, '2026-02-20').total_minor).toBe(0n);
  });

  it('the last payable day is due_date + days_valid_after_due, as the standard’s DPP example', () => {
    // dataDeVencimento 2020-12-25, validadeAposVencimento 10: 2021-01-05 is no longer payable.
    expect(lastPayableDate('2020-12-25', 10)).toBe('2021-01-04');
  });
});
