import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, createBase58check } from '@scure/base';
import { type ChainFamily, FAMILY_LABEL, isNetwork, type Network, networkFamily } from './networks.ts';

/** Tron's version byte: every mainnet address is 0x41 + 20 bytes, which base58check writes as T…. */
export const TRON_VERSION_BYTE = 0x41;

const base58check = createBase58check(sha256);
const EVM_SHAPE = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55: a hex letter is upper-case when the matching nibble of keccak256(lower-case hex) is ≥ 8. */
export function toChecksumAddress(address: string): string {
  if (!EVM_SHAPE.test(address)) throw new RangeError('not an EVM address');
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i];
  return out;
}

/** 20 bytes as an EIP-55 address. */
export const evmAddressFromBytes = (bytes: Uint8Array): string => toChecksumAddress(`0x${bytesToHex(bytes)}`);

/** The 20 account bytes of an uncompressed secp256k1 public key (65 bytes, 0x04 prefix): keccak256 tail. */
export function accountBytesFromPublicKey(uncompressed: Uint8Array): Uint8Array {
  if (uncompressed.length !== 65 || uncompressed[0] !== 0x04) {
    throw new RangeError('expected an uncompressed secp256k1 public key');
  }
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

export function tronAddressFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError('expected 20 account bytes');
  return base58check.encode(Uint8Array.of(TRON_VERSION_BYTE, ...bytes));
}

export function solanaAddressFromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new RangeError('expected a 32-byte ed25519 public key');
  return base58.encode(publicKey);
}

function decodeTron(address: string): Uint8Array | undefined {
  if (!address.startsWith('T') || address.length !== 34) return undefined;
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 && payload[0] === TRON_VERSION_BYTE ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** Tron-shaped (version byte and length right) whatever its checksum says. */
function looksLikeTron(address: string): boolean {
  try {
    const bytes = base58.decode(address);
    return bytes.length === 25 && bytes[0] === TRON_VERSION_BYTE;
  } catch {
    return false;
  }
}

/**
 * Solana addresses are any 32 bytes: on-curve for a key pair, off-curve for program-derived
 * accounts, which can also hold tokens, so the curve is not checked.
 */
function decodeSolana(address: string): Uint8Array | undefined {
  if (address.length < 32 || address.length > 44) return undefined;
  try {
    const bytes = base58.decode(address);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

const isEvm = (address: string): boolean => {
  if (!EVM_SHAPE.test(address)) return false;
  const body = address.slice(2);
  // All one case carries no checksum; mixed case must be exactly EIP-55.
  return body === body.toLowerCase() || body === body.toUpperCase() || toChecksumAddress(address) === address;
};

/** The family a valid address belongs to; undefined when it is valid in none. The formats are disjoint. */
export function addressFamily(address: string): ChainFamily | undefined {
  if (isEvm(address)) return 'evm';
  if (decodeTron(address)) return 'tron';
  if (decodeSolana(address)) return 'solana';
  return undefined;
}

export type AddressFailure = 'unsupported_network' | 'wrong_family' | 'bad_checksum' | 'malformed';

export type AddressCheck =
  | { ok: true; address: string; family: ChainFamily }
  | { ok: false; reason: AddressFailure; message: string };

const EXPECTED: Record<ChainFamily, string> = {
  evm: '0x followed by 40 hexadecimal digits',
  tron: 'a base58check address starting with T (34 characters)',
  solana: 'a base58 public key (32 bytes)',
};

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/**
 * Checks `address` for `network` and returns it normalised (EIP-55 for EVM; Tron and Solana
 * addresses have one spelling). A failure carries a message for the caller's 400 invalid_address.
 */
export function validateAddress(network: string, address: string): AddressCheck {
  if (!isNetwork(network)) {
    return { ok: false, reason: 'unsupported_network', message: `"${network}" is not a supported network.` };
  }
  const family = networkFamily(network);
  const found = addressFamily(address);
  if (found === family) {
    return { ok: true, family, address: family === 'evm' ? toChecksumAddress(address) : address };
  }
  if (found) {
    const label = FAMILY_LABEL[found];
    return {
      ok: false,
      reason: 'wrong_family',
      message: `This is ${article(label)} ${label} address, not ${article(network)} ${network} address.`,
    };
  }
  if (family === 'evm' && EVM_SHAPE.test(address)) {
    return {
      ok: false,
      reason: 'bad_checksum',
      message: `This ${network} address fails its EIP-55 checksum (mixed case must match exactly); check it for a typo.`,
    };
  }
  if (family === 'tron' && looksLikeTron(address)) {
    return {
      ok: false,
      reason: 'bad_checksum',
      message: `This ${network} address fails its base58check checksum; check it for a typo.`,
    };
  }
  return {
    ok: false,
    reason: 'malformed',
    message: `This is not a valid ${network} address: expected ${EXPECTED[family]}.`,
  };
}

/** Shorthand for code that only needs a yes or no. */
export const isValidAddress = (network: Network, address: string): boolean =>
  validateAddress(network, address).ok;
