import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { base58, createBase58check } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountBytesFromPublicKey,
  addressFamily,
  evmAddressFromBytes,
  solanaAddressFromPublicKey,
  toChecksumAddress,
  tronAddressFromBytes,
  validateAddress,
} from './addresses.ts';
import { EVM_NETWORKS, NETWORKS, networkFamily } from './networks.ts';

// The test vectors of EIP-55 itself.
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
// Solana's system program: 32 zero bytes, all leading 1s in base58.
const SOLANA_SYSTEM_PROGRAM = '11111111111111111111111111111111';

const bytes20 = fc.uint8Array({ minLength: 20, maxLength: 20 });
const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const evmAddress = bytes20.map(evmAddressFromBytes);
const tronAddress = bytes20.map(tronAddressFromBytes);
const solanaAddress = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((seed) => solanaAddressFromPublicKey(ed25519.getPublicKey(seed)));
const anyAddress = fc.oneof(evmAddress, tronAddress, solanaAddress);
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

describe('EVM addresses', () => {
  it('checksums the EIP-55 vectors exactly and accepts them on every EVM network', () => {
    for (const vector of EIP55) {
      expect(toChecksumAddress(vector.toLowerCase())).toBe(vector);
      expect(toChecksumAddress(`0x${vector.slice(2).toUpperCase()}`)).toBe(vector);
      for (const network of EVM_NETWORKS) {
        expect(validateAddress(network, vector)).toEqual({ ok: true, family: 'evm', address: vector });
      }
    }
  });

  it('accepts all-lower and all-upper case and normalises them to EIP-55', () => {
    for (const vector of EIP55) {
      expect(validateAddress('polygon', vector.toLowerCase())).toMatchObject({ ok: true, address: vector });
      const upper = `0x${vector.slice(2).toUpperCase()}`;
      expect(validateAddress('base', upper)).toMatchObject({ ok: true, address: vector });
    }
  });

  it('derives the well-known address of private key 1', () => {
    const publicKey = secp256k1.getPublicKey(hexToBytes('00'.repeat(31) + '01'), false);
    expect(evmAddressFromBytes(accountBytesFromPublicKey(publicKey))).toBe(
      '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
    );
  });

  it('refuses a checksummed address with the case of one letter flipped', () => {
    fc.assert(
      fc.property(evmAddress, fc.nat(), (address, pick) => {
        const letters = [...address.slice(2)].flatMap((ch, i) => (/[a-f]/i.test(ch) ? [i + 2] : []));
        // A body of digits only has no case to flip (and is its own checksum).
        fc.pre(letters.length > 1);
        const at = letters[pick % letters.length]!;
        const ch = address[at]!;
        const flipped =
          address.slice(0, at) + (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase());
        const mutated = flipped + address.slice(at + 1);
        const body = mutated.slice(2);
        // Flipping can land on all-one-case, which carries no checksum and is accepted by design.
        fc.pre(body !== body.toLowerCase() && body !== body.toUpperCase());
        const check = validateAddress('ethereum', mutated);
        expect(check).toMatchObject({ ok: false, reason: 'bad_checksum' });
        expect(addressFamily(mutated)).toBeUndefined();
      }),
    );
  });

  it('refuses wrong lengths, a missing prefix and non-hex digits', () => {
    const good = EIP55[0]!;
    for (const bad of [
      good.slice(0, -1),
      `${good}a`,
      good.slice(2),
      `0X${good.slice(2)}`,
      `${good.slice(0, -1)}g`,
    ]) {
      expect(validateAddress('ethereum', bad)).toMatchObject({ ok: false, reason: 'malformed' });
    }
  });
});

describe('Tron addresses', () => {
  it('accepts the USDT TRC-20 contract and decodes it to 0x41 + 20 bytes', () => {
    expect(validateAddress('tron', TRON_USDT)).toEqual({ ok: true, family: 'tron', address: TRON_USDT });
    const raw = base58.decode(TRON_USDT);
    expect(raw.length).toBe(25);
    expect(raw[0]).toBe(0x41);
    // Independent check of the 4-byte double-SHA256 checksum.
    expect(raw.subarray(21)).toEqual(sha256(sha256(raw.subarray(0, 21))).subarray(0, 4));
    expect(tronAddressFromBytes(raw.subarray(1, 21))).toBe(TRON_USDT);
  });

  it('is the same 20 account bytes as the EVM address for one key', () => {
    const publicKey = secp256k1.getPublicKey(hexToBytes('00'.repeat(31) + '01'), false);
    expect(tronAddressFromBytes(accountBytesFromPublicKey(publicKey))).toBe(
      'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC',
    );
  });

  it('refuses an address with one character changed', () => {
    fc.assert(
      fc.property(tronAddress, fc.nat(), fc.nat(), (address, pick, replacement) => {
        // Position 0 is the version's T; changing it breaks the version check instead.
        const at = 1 + (pick % (address.length - 1));
        const alphabet = BASE58.replace(address[at]!, '');
        const mutated =
          address.slice(0, at) + alphabet[replacement % alphabet.length] + address.slice(at + 1);
        const check = validateAddress('tron', mutated);
        expect(check.ok).toBe(false);
        expect(addressFamily(mutated)).toBeUndefined();
      }),
    );
  });

  it('refuses a base58check payload with another version byte', () => {
    const other = createBase58check(sha256).encode(Uint8Array.of(0x42, ...new Uint8Array(20).fill(7)));
    expect(validateAddress('tron', other)).toMatchObject({ ok: false, reason: 'malformed' });
    // A Bitcoin P2PKH address (version 0x00) is base58check too, but not Tron.
    expect(validateAddress('tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toMatchObject({ ok: false });
  });
});

describe('Solana addresses', () => {
  it('accepts ed25519 public keys made with @noble/curves and decodes them back', () => {
    fc.assert(
      fc.property(bytes32, (seed) => {
        const publicKey = ed25519.getPublicKey(seed);
        const address = solanaAddressFromPublicKey(publicKey);
        expect(validateAddress('solana', address)).toEqual({ ok: true, family: 'solana', address });
        expect(bytesToHex(base58.decode(address))).toBe(bytesToHex(publicKey));
      }),
    );
  });

  it('accepts the system program (all zero bytes, leading 1s) and off-curve accounts', () => {
    expect(validateAddress('solana', SOLANA_SYSTEM_PROGRAM)).toMatchObject({ ok: true });
    expect(validateAddress('solana', base58.encode(keccak_256(new Uint8Array(1))))).toMatchObject({
      ok: true,
    });
  });

  it('refuses base58 of any length but 32 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        fc.pre(bytes.length !== 32);
        expect(validateAddress('solana', base58.encode(bytes)).ok).toBe(false);
      }),
    );
    expect(validateAddress('solana', `${'1'.repeat(31)}0`)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('families and cross-chain refusals', () => {
  it('round-trips any valid address: validation is stable on its own output', () => {
    fc.assert(
      fc.property(anyAddress, fc.constantFrom(...NETWORKS), (address, network) => {
        const family = addressFamily(address)!;
        expect(family).toBeDefined();
        const check = validateAddress(network, address);
        expect(check.ok).toBe(networkFamily(network) === family);
        if (check.ok) {
          expect(check.address).toBe(address);
          expect(validateAddress(network, check.address)).toEqual(check);
        }
      }),
    );
  });

  it('names both sides when an address of another family is given', () => {
    expect(validateAddress('polygon', TRON_USDT)).toEqual({
      ok: false,
      reason: 'wrong_family',
      message: 'This is a Tron address, not a polygon address.',
    });
    expect(validateAddress('tron', EIP55[0]!)).toMatchObject({
      reason: 'wrong_family',
      message: 'This is an EVM address, not a tron address.',
    });
    expect(validateAddress('ethereum', SOLANA_SYSTEM_PROGRAM)).toMatchObject({
      reason: 'wrong_family',
      message: 'This is a Solana address, not an ethereum address.',
    });
  });

  it('has no address in two families', () => {
    fc.assert(
      fc.property(anyAddress, (address) => {
        const valid = NETWORKS.filter((network) => validateAddress(network, address).ok).map(networkFamily);
        expect(new Set(valid).size).toBe(1);
      }),
    );
  });

  it('answers none for junk and refuses an unknown network', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (junk) => {
        fc.pre(!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(junk));
        expect(addressFamily(junk)).toBeUndefined();
      }),
    );
    expect(validateAddress('bitcoin', EIP55[0]!)).toMatchObject({ ok: false, reason: 'unsupported_network' });
    expect(validateAddress('ethereum', '')).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
