import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sealer } from './secrets.ts';

const sealer = new Sealer('ab'.repeat(32));
const ivOf = (sealed: string) => Buffer.from(sealed.split('.')[0]!, 'base64');

describe('Sealer', () => {
  it('gives every sealed value an IV of its own, across refills of the IV pool', () => {
    const ivs = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const iv = ivOf(sealer.seal('the same text'));
      expect(iv).toHaveLength(12);
      ivs.add(iv.toString('hex'));
    }
    expect(ivs.size).toBe(2_000);
  });

  it('opens what it sealed, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(sealer.open(sealer.seal(text))).toBe(text);
      }),
    );
  });

  it('refuses a sealed value whose ciphertext was changed', () => {
    const [iv, tag, body] = sealer.seal('{"amount_minor":"100"}').split('.');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => sealer.open([iv, tag, flipped.toString('base64')].join('.'))).toThrow();
  });
});
