import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaleOf } from '../../ledger/currency.ts';
import { computeQuote, feeFor, type QuoteInput, QuoteMathError, rateFor } from './quote-math.ts';

/** An independent check: plain decimal.js at a precision nothing here comes near. */
const Exact = Decimal.clone({ precision: 120 });

const refusalOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(QuoteMathError);
    return { code: (error as QuoteMathError).code, reason: (error as QuoteMathError).reason };
  }
  return undefined;
};

const base: QuoteInput = {
  baseCurrency: 'BRL',
  quoteCurrency: 'USDT',
  baseAmountMinor: 100_000n,
  midPrice: '5.40',
  spreadBps: 50,
  feeBps: 10,
  fixedFeeMinor: 0n,
};

/** Mids from 0.0001 to 100000 BRL, with up to 8 decimal places. */
const midPrice = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 13n }), fc.integer({ min: 0, max: 8 }))
  .map(([units, places]) => new Decimal(units.toString()).div(new Decimal(10).pow(places)).toFixed())
  .filter((mid) => new Decimal(mid).gte('0.0001') && new Decimal(mid).lte(100_000));
const realisticMid = fc.integer({ min: 300, max: 900 }).map((cents) => new Decimal(cents).div(100).toFixed());
const amount = fc.bigInt({ min: 1n, max: 10n ** 16n - 1n });
const spreadBps = fc.oneof(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 9999 }));
const feeBps = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000 }));
const fixedFee = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1_000_000n }));
const stable = fc.constantFrom('USDT', 'USDC');
const direction = fc.oneof(
  stable.map((coin) => ['BRL', coin] as const),
  stable.map((coin) => [coin, 'BRL'] as const),
);

const quoteOrRefusal = (input: QuoteInput) => {
  try {
    return computeQuote(input);
  } catch (error) {
    if (error instanceof QuoteMathError && error.reason === 'below_minimum') return undefined;
    throw error;
  }
};

describe('RFQ quote arithmetic: the worked examples of docs/rfq.md', () => {
  it('buys USDT with R$ 1.000,00 at mid 5.40, spread 50 bps, fee 10 bps', () => {
    expect(computeQuote(base)).toEqual({
      baseCurrency: 'BRL',
      quoteCurrency: 'USDT',
      baseAmountMinor: 100_000n,
      rate: '0.1842638658',
      grossMinor: 184_263_865n,
      feeMinor: 184_264n,
      feeCurrency: 'USDT',
      quoteAmountMinor: 184_079_601n,
    });
  });

  it('sells 100 USDT for BRL at the same prices', () => {
    expect(
      computeQuote({ ...base, baseCurrency: 'USDT', quoteCurrency: 'BRL', baseAmountMinor: 100_000_000n }),
    ).toMatchObject({
      rate: '5.373',
      grossMinor: 53_730n,
      feeMinor: 54n,
      feeCurrency: 'BRL',
      quoteAmountMinor: 53_676n,
    });
  });

  it('adds a fixed fee after the rounded-up percentage', () => {
    expect(computeQuote({ ...base, fixedFeeMinor: 1_000_000n })).toMatchObject({
      feeMinor: 1_184_264n,
      quoteAmountMinor: 183_079_601n,
    });
  });
});

describe('RFQ quote arithmetic: refusals', () => {
  it.each([
    [{ baseCurrency: 'BRL', quoteCurrency: 'BRL' }, 'invalid_request', 'same_currency'],
    [{ baseCurrency: 'USDT', quoteCurrency: 'USDT' }, 'invalid_request', 'same_currency'],
    [{ baseCurrency: 'EUR' }, 'unsupported_currency', 'unsupported_currency'],
    [{ quoteCurrency: 'usdt' }, 'unsupported_currency', 'unsupported_currency'],
    [{ baseCurrency: 'USDT', quoteCurrency: 'USDC' }, 'invalid_request', 'unsupported_pair'],
    [{ baseAmountMinor: 0n }, 'invalid_amount', 'invalid_amount'],
    [{ baseAmountMinor: -100n }, 'invalid_amount', 'invalid_amount'],
    [{ midPrice: '0' }, 'invalid_request', 'invalid_price'],
    [{ midPrice: '0.000' }, 'invalid_request', 'invalid_price'],
    [{ midPrice: '-5.40' }, 'invalid_request', 'invalid_price'],
    [{ midPrice: '5,40' }, 'invalid_request', 'invalid_price'],
    [{ midPrice: '5.4e0' }, 'invalid_request', 'invalid_price'],
    [{ midPrice: 'NaN' }, 'invalid_request', 'invalid_price'],
    [{ spreadBps: -1 }, 'invalid_request', 'invalid_pricing'],
    [{ spreadBps: 10_000 }, 'invalid_request', 'invalid_pricing'],
    [{ spreadBps: 0.5 }, 'invalid_request', 'invalid_pricing'],
    [{ feeBps: 10_001 }, 'invalid_request', 'invalid_pricing'],
    [{ feeBps: -1 }, 'invalid_request', 'invalid_pricing'],
    [{ fixedFeeMinor: -1n }, 'invalid_request', 'invalid_pricing'],
  ])('%o → %s (%s)', (change, code, reason) => {
    expect(refusalOf(() => computeQuote({ ...base, ...change }))).toEqual({ code, reason });
  });

  it('refuses an output below one minor unit instead of executing for zero', () => {
    // 1 micro-USDT is R$ 0.0000054: nothing in centavos.
    const dust = { ...base, baseCurrency: 'USDT', quoteCurrency: 'BRL', baseAmountMinor: 1n };
    expect(refusalOf(() => computeQuote(dust))).toEqual({ code: 'invalid_amount', reason: 'below_minimum' });
    // R$ 0.01 buys 1842 micro-USDT, all eaten by a fixed fee of 1842.
    const eaten = { ...base, baseAmountMinor: 1n, feeBps: 0, fixedFeeMinor: 1842n };
    expect(refusalOf(() => computeQuote(eaten))).toEqual({ code: 'invalid_amount', reason: 'below_minimum' });
    expect(computeQuote({ ...eaten, fixedFeeMinor: 1841n }).quoteAmountMinor).toBe(1n);
  });
});

describe('RFQ quote arithmetic: properties', () => {
  it('gross = floor(base × rate at the scale shift); quote = gross − fee, 1 ≤ quote ≤ gross; fee rounded up', () => {
    fc.assert(
      fc.property(
        direction,
        amount,
        midPrice,
        spreadBps,
        feeBps,
        fixedFee,
        ([from, to], minor, mid, spread, bps, fixed) => {
          const input = {
            baseCurrency: from,
            quoteCurrency: to,
            baseAmountMinor: minor,
            midPrice: mid,
            spreadBps: spread,
            feeBps: bps,
            fixedFeeMinor: fixed,
          };
          const rate = rateFor(from, to, mid, spread);
          const shift = new Exact(10).pow(scaleOf(to) - scaleOf(from));
          const gross = BigInt(new Exact(minor.toString()).times(rate).times(shift).floor().toFixed());
          const fee = feeFor(gross, bps, fixed);
          const quote = quoteOrRefusal(input);
          if (!quote) {
            expect(gross - fee).toBeLessThan(1n);
            return;
          }
          expect(quote.rate).toBe(rate);
          expect(quote.grossMinor).toBe(gross);
          expect(quote.feeMinor).toBe(fee);
          expect(quote.quoteAmountMinor).toBe(gross - fee);
          expect(quote.quoteAmountMinor >= 1n && quote.quoteAmountMinor <= quote.grossMinor).toBe(true);
          expect(quote.feeCurrency).toBe(to);
          // ceil: the percentage part is the least whole number at or above gross × bps / 10000.
          const percentage = quote.feeMinor - fixed;
          expect(percentage * 10_000n >= gross * BigInt(bps)).toBe(true);
          expect((percentage - 1n) * 10_000n < gross * BigInt(bps)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('the rate is the worse side of the mid, cut down to 10 places, never up', () => {
    fc.assert(
      fc.property(direction, midPrice, spreadBps, ([from, to], mid, spread) => {
        const exact =
          from === 'BRL'
            ? new Exact(10_000).div(new Exact(mid).times(10_000 + spread))
            : new Exact(mid).times(10_000 - spread).div(10_000);
        const rate = new Exact(rateFor(from, to, mid, spread));
        expect(rate.lte(exact)).toBe(true);
        expect(exact.minus(rate).lt('1e-10')).toBe(true);
        expect(rate.lte(rateFor(from, to, mid, 0))).toBe(true);
        expect(rate.decimalPlaces()).toBeLessThanOrEqual(10);
      }),
      { numRuns: 2000 },
    );
  });

  const roundTrip = (
    from: 'BRL' | 'USDT' | 'USDC',
    via: 'BRL' | 'USDT' | 'USDC',
    minor: bigint,
    mid: string,
    spread: number,
    bps: number,
    fixed: bigint,
  ) => {
    const pricing = { midPrice: mid, spreadBps: spread, feeBps: bps, fixedFeeMinor: fixed };
    const out = quoteOrRefusal({
      baseCurrency: from,
      quoteCurrency: via,
      baseAmountMinor: minor,
      ...pricing,
    });
    if (!out) return;
    const back = quoteOrRefusal({
      baseCurrency: via,
      quoteCurrency: from,
      baseAmountMinor: out.quoteAmountMinor,
      ...pricing,
    });
    if (!back) return;
    expect(back.quoteAmountMinor <= minor).toBe(true);
  };

  it('a round trip BRL → stablecoin → BRL never gains, whatever the spread and fees', () => {
    fc.assert(
      fc.property(
        stable,
        amount,
        midPrice,
        spreadBps,
        feeBps,
        fixedFee,
        (coin, minor, mid, spread, bps, fixed) => roundTrip('BRL', coin, minor, mid, spread, bps, fixed),
      ),
      { numRuns: 2000 },
    );
  });

  it('a round trip stablecoin → BRL → stablecoin never gains either', () => {
    fc.assert(
      fc.property(
        stable,
        amount,
        midPrice,
        spreadBps,
        feeBps,
        fixedFee,
        (coin, minor, mid, spread, bps, fixed) => roundTrip(coin, 'BRL', minor, mid, spread, bps, fixed),
      ),
      { numRuns: 2000 },
    );
  });

  it('with no spread and no fees a round trip still never gains (only rounding, all of it down)', () => {
    fc.assert(
      fc.property(
        stable,
        fc.boolean(),
        amount,
        fc.oneof(midPrice, realisticMid),
        (coin, fromBrl, minor, mid) =>
          fromBrl
            ? roundTrip('BRL', coin, minor, mid, 0, 0, 0n)
            : roundTrip(coin, 'BRL', minor, mid, 0, 0, 0n),
      ),
      { numRuns: 3000 },
    );
  });
});
