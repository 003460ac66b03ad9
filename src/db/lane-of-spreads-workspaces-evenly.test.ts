import fc from 'fast-check';
import { uuidv7 } from 'uuidv7';
import { describe, expect, it } from 'vitest';
import { laneOf } from './group-commit.ts';

describe('laneOf', () => {
  it('gives the same key the same lane, always one of the lanes', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 64 }), (key, lanes) => {
        const lane = laneOf(key, lanes);
        expect(Number.isInteger(lane) && lane >= 0 && lane < lanes).toBe(true);
        expect(laneOf(key, lanes)).toBe(lane);
      }),
    );
  });

  it('spreads workspace ids over the lanes about evenly', () => {
    for (const lanes of [2, 3, 4, 8]) {
      const counts = new Array<number>(lanes).fill(0);
      const keys = 8_000;
      for (let i = 0; i < keys; i++) counts[laneOf(uuidv7(), lanes)]! += 1; // a lane's key is the workspace id
      for (const count of counts) {
        expect(count).toBeGreaterThan((keys / lanes) * 0.85);
        expect(count).toBeLessThan((keys / lanes) * 1.15);
      }
    }
  });
});
