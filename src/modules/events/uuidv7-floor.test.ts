import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.ts';
import { uuidv7Floor } from './service.ts';

/** A UUIDv7 of millisecond `ms` with the given 74 random bits, in its text form. */
function uuidv7At(ms: number, random: bigint): string {
  const value =
    (BigInt(ms) << 80n) |
    (7n << 76n) |
    ((random >> 62n) << 64n) |
    (2n << 62n) |
    (random & ((1n << 62n) - 1n));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// Text order of lowercase hex UUIDs is PostgreSQL's uuid order (byte by byte).
describe('the first UUIDv7 of a millisecond', () => {
  it('sorts at or below every id of that millisecond and above every id of the ones before', () => {
    const ms = fc.integer({ min: 1, max: 2 ** 48 - 2 });
    const random = fc.bigInt({ min: 0n, max: (1n << 74n) - 1n });
    fc.assert(
      fc.property(ms, random, random, (at, mine, earlier) => {
        const floor = uuidv7Floor(at);
        expect(uuidv7At(at, mine) >= floor).toBe(true);
        expect(uuidv7At(at - 1, earlier) < floor).toBe(true);
        expect(uuidv7At(at + 1, 0n) > floor).toBe(true);
      }),
    );
  });

  it('bounds the ids the process takes now', () => {
    const before = uuidv7Floor(Date.now());
    const id = newId();
    expect(id >= before).toBe(true);
    expect(id < uuidv7Floor(Date.now() + 1)).toBe(true);
  });
});
