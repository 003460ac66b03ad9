import type { ChainFamily } from '../chain/networks.ts';

/**
 * A key-management provider: it makes key pairs, keeps the private halves to itself and signs with
 * them. Nothing it returns carries a private key; callers hold only the key's reference (a wallet's
 * provider_ref) and its address.
 */
export interface KeyManager {
  readonly name: string;
  /** A new key pair for the family (secp256k1 for evm and tron, ed25519 for solana) and its address. */
  createKey(family: ChainFamily): Promise<{ keyRef: string; address: string }>;
  /** The address of a key; KeyNotFoundError when the provider has no such key. */
  address(keyRef: string): Promise<string>;
  /**
   * Signs with a key. evm and tron: `payload` is the 32-byte digest the chain signs (keccak256 of
   * the transaction for EVM, sha256 of raw_data for Tron), the signature 65 bytes r‖s‖v with v the
   * recovery id 0 or 1 and s low (EIP-2), which both chains take; solana: `payload` is the message
   * itself, the signature 64 bytes of ed25519.
   */
  sign(keyRef: string, payload: Uint8Array): Promise<Uint8Array>;
}

export class KeyNotFoundError extends Error {
  constructor(keyRef: string) {
    super(`no key ${keyRef}`);
    this.name = 'KeyNotFoundError';
  }
}
