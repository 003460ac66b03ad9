import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf, parseDocument, parsePixKey } from './keys.ts';

function withCheckDigits(base: number[], weightsFirst: number[], weightsSecond: number[]): number[] {
  const dv = (values: number[], weights: number[]) => {
    const rest = values.reduce((acc, v, i) => acc + v * weights[i]!, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = dv(base, weightsFirst);
  return [...base, first, dv([...base, first], weightsSecond)];
}
const cpfOf = (base: number[]) =>
  withCheckDigits(base, [10, 9, 8, 7, 6, 5, 4, 3, 2], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]).join('');
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjOf = (chars: string) => {
  const values = [...chars].map((c) => c.charCodeAt(0) - 48);
  return chars + withCheckDigits(values, CNPJ_W2.slice(1), CNPJ_W2).slice(12).join('');
};

describe('PIX keys', () => {
  it('known documents', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11222333000180')).toBe(false);
    // The alphanumeric CNPJ example published by the Receita Federal.
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE36')).toBe(false);
  });

  it('detects each key type', () => {
    expect(parsePixKey('529.982.247-25')).toEqual({ type: 'cpf', value: '52998224725' });
    expect(parsePixKey('11.222.333/0001-81')).toEqual({ type: 'cnpj', value: '11222333000181' });
    expect(parsePixKey('Ana@Example.com')).toEqual({ type: 'email', value: 'ana@example.com' });
    expect(parsePixKey('+5511987654321')).toEqual({ type: 'phone', value: '+5511987654321' });
    expect(parsePixKey('+551133334444')).toEqual({ type: 'phone', value: '+551133334444' });
    expect(parsePixKey('123e4567-e89b-12d3-a456-426614174000')?.type).toBe('evp');
  });

  it('refuses bad keys and mismatched types', () => {
    for (const bad of [
      '',
      'abc',
      '+15551234567',
      '+55119876',
      '123E4567-E89B-12D3-A456-426614174000',
      `${'a'.repeat(70)}@example.com`,
    ]) {
      expect(parsePixKey(bad), bad).toBeUndefined();
    }
    expect(parsePixKey('52998224725', 'email')).toBeUndefined();
    expect(parsePixKey('ana@example.com', 'cpf')).toBeUndefined();
  });

  it('property: every CPF built with its check digits is valid, any other last digit is not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (base, delta) => {
          fc.pre(new Set(base).size > 1);
          const cpf = cpfOf(base);
          expect(parsePixKey(cpf)).toEqual({ type: 'cpf', value: cpf });
          const broken = cpf.slice(0, 10) + ((Number(cpf[10]) + delta) % 10);
          expect(isValidCpf(broken)).toBe(false);
        },
      ),
    );
  });

  it('property: every alphanumeric CNPJ built with its check digits is valid; lower-case input is normalised', () => {
    const char = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(fc.array(char, { minLength: 12, maxLength: 12 }), (chars) => {
        const cnpj = cnpjOf(chars.join(''));
        fc.pre(!/^(\d)\1{13}$/.test(cnpj));
        expect(parseDocument(cnpj.toLowerCase())).toEqual({ type: 'cnpj', value: cnpj });
      }),
    );
  });

  it('property: no string makes the validator throw, and what it accepts re-validates to itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 90 }), (raw) => {
        const key = parsePixKey(raw);
        if (key) expect(parsePixKey(key.value, key.type)).toEqual(key);
      }),
    );
  });
});
