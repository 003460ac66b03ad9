import { describe, expect, it } from 'vitest';
import { previousLocalDay } from './daily.ts';

describe('previousLocalDay', () => {
  it('is yesterday in São Paulo, midnight to midnight (UTC−3)', () => {
    expect(previousLocalDay(new Date('2026-11-25T02:00:00Z'))).toEqual({
      from: new Date('2026-11-23T03:00:00Z'),
      to: new Date('2026-11-24T03:00:00Z'),
    });
    expect(previousLocalDay(new Date('2026-11-25T04:00:00Z'))).toEqual({
      from: new Date('2026-11-24T03:00:00Z'),
      to: new Date('2026-11-25T03:00:00Z'),
    });
  });
});
