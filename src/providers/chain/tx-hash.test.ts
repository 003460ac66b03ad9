import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NETWORKS, networkFamily } from './networks.ts';
import { isTxHash, randomTxHash } from './tx-hash.ts';

describe('transaction hashes', () => {
  it('are in their own family’s format and in no other', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NETWORKS), fc.constantFrom(...NETWORKS), (made, checked) => {
        const hash = randomTxHash(made);
        expect(isTxHash(checked, hash)).toBe(networkFamily(made) === networkFamily(checked));
      }),
    );
    expect(randomTxHash('bsc')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(randomTxHash('tron')).toMatch(/^[0-9a-f]{64}$/);
    expect(isTxHash('solana', '0OIl')).toBe(false);
  });
});
