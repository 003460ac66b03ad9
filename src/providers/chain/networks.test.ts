import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVM_NETWORKS,
  fromChainUnits,
  isNetwork,
  NETWORKS,
  networkFamily,
  networksOfFamily,
  STABLECOINS,
  stablecoinsOn,
  toChainUnits,
  tokenDecimals,
} from './networks.ts';

describe('networks', () => {
  it('lists the nine networks of API.md in three families', () => {
    expect([...NETWORKS].sort()).toEqual(
      ['arbitrum', 'avalanche', 'base', 'bsc', 'ethereum', 'optimism', 'polygon', 'solana', 'tron'].sort(),
    );
    expect(networksOfFamily('evm')).toEqual(EVM_NETWORKS);
    expect(networksOfFamily('tron')).toEqual(['tron']);
    expect(networksOfFamily('solana')).toEqual(['solana']);
    expect(NETWORKS.map(networkFamily).filter((family) => family === 'evm')).toHaveLength(7);
    expect(isNetwork('polygon')).toBe(true);
    expect(isNetwork('Polygon')).toBe(false);
    expect(isNetwork('bitcoin')).toBe(false);
  });

  it('carries USDT and USDC everywhere, with 18 decimals on BSC and 6 elsewhere', () => {
    for (const network of NETWORKS) {
      expect(stablecoinsOn(network)).toEqual(STABLECOINS);
      for (const coin of STABLECOINS) expect(tokenDecimals(network, coin)).toBe(network === 'bsc' ? 18 : 6);
      expect(tokenDecimals(network, 'BRL')).toBeUndefined();
    }
  });
});

describe('ledger units and chain units', () => {
  const network = fc.constantFrom(...NETWORKS);
  const coin = fc.constantFrom(...STABLECOINS);
  const amount = fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n });

  it('round-trips a ledger amount exactly, with no dust', () => {
    fc.assert(
      fc.property(network, coin, amount, (net, cur, minor) => {
        expect(fromChainUnits(net, cur, toChainUnits(net, cur, minor))).toEqual({
          amountMinor: minor,
          dust: 0n,
        });
      }),
    );
  });

  it('rounds an 18-decimal amount down and reports the rest as dust', () => {
    expect(toChainUnits('bsc', 'USDT', 1_500_000n)).toBe(1_500_000_000_000_000_000n);
    expect(fromChainUnits('bsc', 'USDT', 1_500_000_999_999_999_999n)).toEqual({
      amountMinor: 1_500_000n,
      dust: 999_999_999_999n,
    });
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (units) => {
        const { amountMinor, dust } = fromChainUnits('bsc', 'USDC', units);
        expect(toChainUnits('bsc', 'USDC', amountMinor) + dust).toBe(units);
        expect(dust < 10n ** 12n).toBe(true);
      }),
    );
  });

  it('refuses a currency the network does not carry', () => {
    expect(() => toChainUnits('polygon', 'BRL', 1n)).toThrow(RangeError);
  });
});
