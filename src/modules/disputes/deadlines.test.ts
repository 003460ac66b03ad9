import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noticesDue } from './deadlines.ts';
import { DEADLINE_NOTICES, type DeadlineNotice } from './schemas.ts';

const HOUR_MS = 3600_000;
const HOURS: Record<DeadlineNotice, number> = { '48h': 48, '24h': 24, '6h': 6 };

describe('noticesDue', () => {
  it('is each notice whose time came, not sent yet, and none once the deadline passed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10 * HOUR_MS, max: 100 * HOUR_MS }),
        fc.subarray([...DEADLINE_NOTICES]),
        (leftMs, sent) => {
          const now = new Date(1_800_000_000_000);
          const due = noticesDue(new Date(now.getTime() + leftMs), now, sent);
          for (const notice of DEADLINE_NOTICES) {
            const expected = leftMs > 0 && leftMs <= HOURS[notice] * HOUR_MS && !sent.includes(notice);
            expect(due.includes(notice)).toBe(expected);
          }
        },
      ),
    );
  });

  it('sends each notice once over any walk of the clock towards the deadline', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 * HOUR_MS }), { maxLength: 20 }), (steps) => {
        const deadline = new Date(1_800_000_000_000 + 72 * HOUR_MS);
        let now = 1_800_000_000_000;
        const sent: DeadlineNotice[] = [];
        for (const step of steps) {
          now += step;
          const due = noticesDue(deadline, new Date(now), sent);
          expect(due.some((notice) => sent.includes(notice))).toBe(false);
          sent.push(...due);
        }
        expect(new Set(sent).size).toBe(sent.length);
      }),
    );
  });
});
