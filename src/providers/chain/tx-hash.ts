import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { type Network, networkFamily } from './networks.ts';

/**
 * A transaction id in its network's own format: EVM 0x + 32 bytes in hex; Tron 32 bytes in hex
 * without 0x; Solana the base58 of the transaction's first signature (64 bytes).
 */
export function randomTxHash(network: Network): string {
  switch (networkFamily(network)) {
    case 'evm':
      return `0x${bytesToHex(randomBytes(32))}`;
    case 'tron':
      return bytesToHex(randomBytes(32));
    case 'solana':
      return base58.encode(randomBytes(64));
  }
}

export function isTxHash(network: Network, hash: string): boolean {
  switch (networkFamily(network)) {
    case 'evm':
      return /^0x[0-9a-f]{64}$/i.test(hash);
    case 'tron':
      return /^[0-9a-f]{64}$/i.test(hash);
    case 'solana':
      try {
        return base58.decode(hash).length === 64;
      } catch {
        return false;
      }
  }
}
