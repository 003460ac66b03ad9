import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moneyJson } from './outbox.ts';

/** What the text must be: every bigint written as its decimal string, the rest as JSON.stringify. */
const expected = (value: unknown) =>
  JSON.stringify(value ?? null, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));

describe('moneyJson', () => {
  it('writes bigints as strings of minor units wherever they sit, and everything else as JSON does', () => {
    const leaf = fc.oneof(fc.bigInt(), fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        expect(moneyJson(input)).toBe(expected(input));
      }),
    );
  });

  it('writes a bigint that a view left in place, as a string, and nothing as null', () => {
    expect(moneyJson({ amount_minor: 1999n, nested: [{ fee_minor: 0n }] })).toBe(
      '{"amount_minor":"1999","nested":[{"fee_minor":"0"}]}',
    );
    expect(moneyJson(undefined)).toBe('null');
  });

  it('refuses a value that is no JSON at all, as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => moneyJson(cyclic)).toThrow(TypeError);
  });
});
