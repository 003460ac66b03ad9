import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceDecimal } from './decimal.ts';
import { UnknownSymbolError } from './provider.ts';
import { SandboxPriceProvider } from './sandbox.ts';

const clock = { now: () => new Date('2025-06-02T12:00:00Z') };

describe('sandbox price feed', () => {
  it('quotes both stablecoins around the configured mid, stamped with the clock', async () => {
    const prices = await new SandboxPriceProvider({ clock }).getPrices();
    expect(prices).toEqual([
      {
        symbol: 'USDT',
        currency: 'BRL',
        bid: '5.3973',
        ask: '5.4027',
        mid: '5.4',
        as_of: clock.now(),
        source: 'sandbox',
      },
      {
        symbol: 'USDC',
        currency: 'BRL',
        bid: '5.3973',
        ask: '5.4027',
        mid: '5.4',
        as_of: clock.now(),
        source: 'sandbox',
      },
    ]);
  });

  it('takes a mid per symbol and a book width, and filters symbols', async () => {
    const feed = new SandboxPriceProvider({ clock, mid: { USDC: '5.1' }, halfSpreadBps: 0 });
    expect(await feed.getPrices(['USDC'])).toMatchObject([
      { symbol: 'USDC', bid: '5.1', ask: '5.1', mid: '5.1' },
    ]);
    expect((await feed.getPrices(['USDT', 'USDT']))[0]).toMatchObject({ symbol: 'USDT', mid: '5.4' });
    await expect(feed.getPrices(['usdt'])).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('stays fixed without a walk', async () => {
    const feed = new SandboxPriceProvider({ clock, mid: '5.40' });
    const mids = [];
    for (let i = 0; i < 20; i++) mids.push((await feed.getPrices(['USDT']))[0]!.mid);
    expect(new Set(mids)).toEqual(new Set(['5.4']));
  });

  it('refuses a mid that is not a positive decimal', () => {
    for (const mid of ['0', '-5.4', '5,40', '5.4e0', '', '0.00001']) {
      expect(() => new SandboxPriceProvider({ clock, mid })).toThrow(RangeError);
    }
  });

  it('walks the same way for the same seed', async () => {
    const run = async (seed: number) => {
      const feed = new SandboxPriceProvider({ clock, walk: { seed } });
      const mids = [];
      for (let i = 0; i < 30; i++) mids.push((await feed.getPrices()).map((price) => price.mid).join('/'));
      return mids;
    };
    expect(await run(7)).toEqual(await run(7));
    expect(await run(7)).not.toEqual(await run(8));
    expect(new Set(await run(7)).size).toBeGreaterThan(1);
  });

  it('walks in bounded steps within the drift bound, bid ≤ mid ≤ ask', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 10, max: 100 }),
        async (seed, maxStepBps, maxDriftBps) => {
          const base = new PriceDecimal('5.40');
          const feed = new SandboxPriceProvider({ clock, walk: { seed, maxStepBps, maxDriftBps } });
          let previous = base;
          for (let i = 0; i < 60; i++) {
            for (const price of await feed.getPrices()) {
              const mid = new PriceDecimal(price.mid);
              expect(mid.minus(base).abs().lte(base.times(maxDriftBps).div(10_000))).toBe(true);
              expect(new PriceDecimal(price.bid).lte(mid) && mid.lte(price.ask)).toBe(true);
              if (price.symbol === 'USDT') {
                // One step is at most maxStepBps of the configured mid (plus the 8-place rounding).
                expect(
                  mid.minus(previous).abs().lte(base.times(maxStepBps).div(10_000).plus('0.00000001')),
                ).toBe(true);
                previous = mid;
              }
            }
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
