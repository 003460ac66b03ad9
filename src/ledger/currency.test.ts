import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../platform/errors.ts';
import {
  CURRENCY_CODES,
  currencyOf,
  formatAmount,
  fromDecimal,
  isCurrency,
  parseAmount,
  scaleOf,
  toDecimal,
} from './currency.ts';

const currency = fc.constantFrom(...CURRENCY_CODES);
const wireAmount = fc.stringMatching(/^[0-9]{1,16}$/);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as AppError).code;
  }
  return undefined;
};

describe('currency table', () => {
  it('has the scales of API.md', () => {
    expect(CURRENCY_CODES).toEqual(['BRL', 'USDT', 'USDC']);
    expect(CURRENCY_CODES.map(scaleOf)).toEqual([2, 6, 6]);
  });

  it('refuses unknown currencies with unsupported_currency', () => {
    expect(codeOf(() => currencyOf('EUR'))).toBe('unsupported_currency');
    expect(codeOf(() => currencyOf('brl'))).toBe('unsupported_currency');
    expect(codeOf(() => currencyOf('__proto__'))).toBe('unsupported_currency');
    expect(isCurrency('toString')).toBe(false);
    expect(currencyOf('USDC')).toBe('USDC');
  });
});

describe('wire amounts', () => {
  it('round-trips every string of the write-side pattern (leading zeros normalised)', () => {
    fc.assert(
      fc.property(wireAmount, (wire) => {
        const minor = parseAmount(wire, { allowZero: true });
        expect(typeof minor).toBe('bigint');
        expect(formatAmount(minor)).toBe(wire.replace(/^0+(?=.)/, ''));
      }),
    );
  });

  it('refuses anything outside ^[0-9]{1,16}$ with invalid_amount', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string().filter((s) => !/^[0-9]{1,16}$/.test(s)),
          fc.stringMatching(/^[0-9]{17,20}$/),
          fc.constantFrom('-1', '1.5', ' 1', '1e3', '0x10', ''),
        ),
        (wire) => {
          expect(codeOf(() => parseAmount(wire))).toBe('invalid_amount');
        },
      ),
    );
    expect(codeOf(() => parseAmount(100))).toBe('invalid_amount');
    expect(codeOf(() => parseAmount(undefined))).toBe('invalid_amount');
  });

  it('refuses zero unless allowed', () => {
    expect(codeOf(() => parseAmount('0'))).toBe('invalid_amount');
    expect(codeOf(() => parseAmount('0000'))).toBe('invalid_amount');
    expect(parseAmount('0', { allowZero: true })).toBe(0n);
  });

  it('keeps every 16-digit amount exact (beyond 2^53)', () => {
    expect(parseAmount('9999999999999999')).toBe(9_999_999_999_999_999n);
    expect(formatAmount(9_007_199_254_740_993n)).toBe('9007199254740993');
  });
});

describe('decimal strings', () => {
  it('toDecimal and fromDecimal are inverse for any minor amount', () => {
    fc.assert(
      fc.property(currency, fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), (code, minor) => {
        const decimal = toDecimal(minor, code);
        expect(decimal).toMatch(new RegExp(`^-?[0-9]+\\.[0-9]{${scaleOf(code)}}$`));
        expect(fromDecimal(decimal, code)).toBe(minor);
      }),
    );
  });

  it('formats examples', () => {
    expect(toDecimal(1050n, 'BRL')).toBe('10.50');
    expect(toDecimal(-5n, 'BRL')).toBe('-0.05');
    expect(toDecimal(1n, 'USDT')).toBe('0.000001');
    expect(fromDecimal('10.5', 'BRL')).toBe(1050n);
    expect(fromDecimal('3', 'USDC')).toBe(3_000_000n);
  });

  it('never rounds: more fraction digits than the scale is an error', () => {
    fc.assert(
      fc.property(currency, fc.stringMatching(/^[0-9]{1,8}$/), (code, whole) => {
        const tooPrecise = `${whole}.${'1'.repeat(scaleOf(code) + 1)}`;
        expect(codeOf(() => fromDecimal(tooPrecise, code))).toBe('invalid_amount');
      }),
    );
    expect(codeOf(() => fromDecimal('abc', 'BRL'))).toBe('invalid_amount');
  });
});
