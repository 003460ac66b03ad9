/** The dashboard's money: exact bigint formatting by currency scale and locale, and reading it back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalString, formatMoney, parseMoney } from '../../web/dashboard/src/money.ts';

const LOCALES = ['pt-BR', 'en'] as const;
const CURRENCIES = ['BRL', 'USDT', 'USDC'] as const;

describe('dashboard money', () => {
  it('formats by scale and locale', () => {
    expect(formatMoney('123456', 'BRL', 'pt-BR')).toBe('R$ 1.234,56');
    expect(formatMoney('123456', 'BRL', 'en')).toBe('R$1,234.56');
    expect(formatMoney('5', 'BRL', 'pt-BR')).toBe('R$ 0,05');
    expect(formatMoney('12500000', 'USDT', 'en')).toBe('12.500000 USDT');
    expect(formatMoney('-100', 'BRL', 'en')).toBe('R$−1.00');
    // Beyond 2^53: no float ever touches the amount.
    expect(formatMoney('9999999999999999', 'BRL', 'en')).toBe('R$99,999,999,999,999.99');
    expect(decimalString('125000', 'BRL')).toBe('1250.00');
    expect(decimalString('1', 'USDC')).toBe('0.000001');
  });

  it('reads what a person types in each locale, and refuses what is not an amount', () => {
    expect(parseMoney('1.234,56', 'BRL', 'pt-BR')).toBe('123456');
    expect(parseMoney('R$ 10', 'BRL', 'pt-BR')).toBe('1000');
    expect(parseMoney('1,234.5', 'BRL', 'en')).toBe('123450');
    expect(parseMoney('12.5', 'USDT', 'en')).toBe('12500000');
    expect(parseMoney('1.234', 'BRL', 'pt-BR')).toBe('123400');
    // A dot typed as a decimal point in pt-BR is refused, not read as thousands.
    for (const bad of ['', 'abc', '1,2,3', '49.90', '1.23.456', '-5', '1e3', '0,001'])
      expect(parseMoney(bad, 'BRL', 'pt-BR'), bad).toBeNull();
    expect(parseMoney('1.2345678', 'USDT', 'en')).toBeNull();
  });

  it('reads back exactly what it shows, for any amount, currency and locale', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...LOCALES),
        (minor, currency, locale) => {
          const shown = formatMoney(minor, currency, locale).replace(/ (USDT|USDC)$/, '');
          expect(parseMoney(shown, currency, locale)).toBe(minor.toString());
          expect(BigInt(decimalString(minor.toString(), currency).replace('.', ''))).toBe(minor);
        },
      ),
    );
  });
});
