import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromPspAmount, toPspAmount } from './money.ts';

describe('API Pix amounts', () => {
  it('round-trips every amount the format can hold, with exactly two decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_999_999_999_99n }), (minor) => {
        const text = toPspAmount(minor);
        expect(text).toMatch(/^[0-9]{1,10}\.[0-9]{2}$/);
        expect(fromPspAmount(text)).toBe(minor);
      }),
    );
  });

  it('writes centavos the way the standard shows them', () => {
    expect(toPspAmount(0n)).toBe('0.00');
    expect(toPspAmount(5n)).toBe('0.05');
    expect(toPspAmount(12345n)).toBe('123.45');
  });

  it('reads nothing that is not a two-decimal amount', () => {
    for (const bad of ['1', '1.5', '1.005', '-1.00', ' 1.00', '1,00', '12345678901.00', 1.5, null]) {
      expect(fromPspAmount(bad)).toBeUndefined();
    }
  });
});
