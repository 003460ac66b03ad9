/**
 * Ids are UUIDv7 that sort by creation ("newest first" is "id descending"): each one above the one
 * before, across the refills of the random pool they draw from, and never twice.
 */
import { describe, expect, it } from 'vitest';
import { isUuid, newId } from './ids.ts';

describe('newId', () => {
  it('makes version 7 ids, each above the one before and none twice, across pool refills', () => {
    const made = Array.from({ length: 5000 }, newId); // over 1,024 words of the pool, several times
    expect(new Set(made).size).toBe(made.length);
    for (let i = 1; i < made.length; i++) expect(made[i]! > made[i - 1]!).toBe(true);
    for (const id of made) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
  });

  it('draws different random parts in two ids of one millisecond', () => {
    const [a, b] = [newId(), newId()];
    // The last 32 bits are drawn fresh for every id.
    expect(a.slice(-8)).not.toBe(b.slice(-8));
  });
});
