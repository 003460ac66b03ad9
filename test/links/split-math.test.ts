/** The split arithmetic: parts add up to the net exactly, each recipient gets its share rounded down. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FULL_SHARE_BPS, MAX_SPLITS, splitNet } from '../../src/modules/links/split-math.ts';

const OWNER = '00000000-0000-7000-8000-0000000000ff';
const partyId = (i: number) => `00000000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;

/** Up to 20 shares of distinct parties, 1..10000 bps each, adding up to at most 10000. */
const shares = fc.array(fc.integer({ min: 1, max: FULL_SHARE_BPS }), { maxLength: MAX_SPLITS }).map((bps) => {
  let left = FULL_SHARE_BPS;
  return bps
    .map((b) => {
      const taken = Math.min(b, left);
      left -= taken;
      return taken;
    })
    .filter((b) => b > 0)
    .map((share_bps, i) => ({ party_id: partyId(i + 1), share_bps }));
});
const net = fc.bigInt({ min: 0n, max: 10n ** 16n });

describe('splitNet', () => {
  it('parts add up to the net exactly; each recipient gets floor(net × bps / 10000); the owner the rest', () => {
    fc.assert(
      fc.property(net, shares, (amount, set) => {
        const parts = splitNet(amount, set, OWNER);
        expect(parts.reduce((sum, part) => sum + part.amount, 0n)).toBe(amount);
        for (const share of set) {
          const part = parts.find((p) => p.partyId === share.party_id)!;
          expect(part.amount).toBe((amount * BigInt(share.share_bps)) / 10_000n);
        }
        const owner = parts.find((p) => p.partyId === OWNER)!;
        const totalBps = set.reduce((sum, s) => sum + s.share_bps, 0);
        // The owner keeps its own share, plus less than one minor unit per recipient from rounding.
        const ownerShare = (amount * BigInt(FULL_SHARE_BPS - totalBps)) / 10_000n;
        expect(owner.amount >= ownerShare).toBe(true);
        expect(owner.amount - ownerShare <= BigInt(set.length + 1)).toBe(true);
        expect(parts.every((p) => p.amount >= 0n)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('the owner named among the recipients is credited once with both', () => {
    fc.assert(
      fc.property(net, fc.integer({ min: 1, max: 10_000 }), (amount, bps) => {
        const parts = splitNet(amount, [{ party_id: OWNER, share_bps: bps }], OWNER);
        expect(parts).toEqual([{ partyId: OWNER, amount }]);
      }),
    );
  });

  it('worked example: R$ 100.01 net, 33.33 % and 33.33 %: 3333 + 3333 to them, 3335 to the owner', () => {
    const parts = splitNet(
      10_001n,
      [
        { party_id: partyId(1), share_bps: 3333 },
        { party_id: partyId(2), share_bps: 3333 },
      ],
      OWNER,
    );
    expect(parts).toEqual([
      { partyId: partyId(1), amount: 3333n },
      { partyId: partyId(2), amount: 3333n },
      { partyId: OWNER, amount: 3335n },
    ]);
  });

  it('refuses what the service never passes: a negative net, shares over 10000', () => {
    expect(() => splitNet(-1n, [], OWNER)).toThrow();
    expect(() => splitNet(1n, [{ party_id: partyId(1), share_bps: 10_001 }], OWNER)).toThrow();
  });
});
