/** The charts' scale: a value between the bounds falls between 0 and the height, exactly by bigint. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { scaled, shortDay } from '../../web/dashboard/src/chart-scale.ts';

it('places every value of the range inside the plot, in order, beyond 2^53 too', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
      fc.bigInt({ min: 1n, max: 10n ** 18n }),
      fc.bigInt({ min: 0n, max: 10n ** 18n }),
      (low, span, offset) => {
        const high = low + span;
        const value = low + (offset % (span + 1n));
        const y = scaled(value, low, high, 182);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(182);
        expect(scaled(low, low, high, 182)).toBe(0);
        expect(scaled(high, low, high, 182)).toBe(182);
      },
    ),
  );
  expect(scaled(5n, 5n, 5n, 100)).toBe(0);
});

it('labels a day as the locale writes it, without a time zone shift', () => {
  expect(shortDay('2026-11-01', 'pt-BR')).toBe('01/11');
  expect(shortDay('2026-11-01', 'en')).toBe('11/01');
});
