import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { Sealer } from '../../src/platform/secrets.ts';
import { addressFamily, validateAddress } from '../../src/providers/chain/addresses.ts';
import { CHAIN_FAMILIES, type ChainFamily, networksOfFamily } from '../../src/providers/chain/networks.ts';
import { LocalKeyManager } from '../../src/providers/kms/local.ts';
import { KeyNotFoundError } from '../../src/providers/kms/provider.ts';
import { createTestDatabase } from '../support/database.ts';

let db: Database;
let sealer: Sealer;
let kms: LocalKeyManager;
beforeAll(async () => {
  db = await createTestDatabase();
  sealer = new Sealer(randomBytes(32).toString('hex'));
  kms = new LocalKeyManager(db, sealer);
});
afterAll(() => db.close());

interface StoredKey {
  id: string;
  family: string;
  algorithm: string;
  public_key: string;
  address: string;
  sealed_private_key: string;
}
const stored = async (keyRef: string) =>
  (await db.query<StoredKey>('SELECT * FROM kms_keys WHERE id = $1', [keyRef])).rows[0]!;

/** The address of a private key, worked out here from @noble directly rather than through our modules. */
function independentAddress(family: ChainFamily, secretKey: Uint8Array): string {
  if (family === 'solana') return base58.encode(ed25519.getPublicKey(secretKey));
  const account = keccak_256(secp256k1.getPublicKey(secretKey, false).slice(1)).slice(-20);
  if (family === 'evm') return `0x${bytesToHex(account)}`;
  const payload = Uint8Array.of(0x41, ...account);
  return base58.encode(Uint8Array.of(...payload, ...sha256(sha256(payload)).slice(0, 4)));
}

describe('LocalKeyManager', () => {
  it.each(CHAIN_FAMILIES)(
    'makes a key of family %s whose address is valid on every network of its family',
    async (family) => {
      const { keyRef, address } = await kms.createKey(family);
      expect(addressFamily(address)).toBe(family);
      for (const network of networksOfFamily(family)) {
        expect(validateAddress(network, address)).toEqual({ ok: true, family, address });
      }
      expect(await kms.address(keyRef)).toBe(address);

      const row = await stored(keyRef);
      const secretKey = hexToBytes(sealer.open(row.sealed_private_key));
      const expected = independentAddress(family, secretKey);
      // EVM: the same 20 bytes; the case is EIP-55, checked by validateAddress above.
      expect(family === 'evm' ? address.toLowerCase() : address).toBe(expected);
    },
  );

  it('signs an EVM or Tron digest with a 65-byte r‖s‖v signature that recovers the address', async () => {
    for (const family of ['evm', 'tron'] as const) {
      const { keyRef, address } = await kms.createKey(family);
      const digest = family === 'evm' ? keccak_256(utf8ToBytes('hello')) : sha256(utf8ToBytes('hello'));
      const signature = await kms.sign(keyRef, digest);
      expect(signature.length).toBe(65);
      const v = signature[64]!;
      expect([0, 1]).toContain(v);
      const publicKey = secp256k1.recoverPublicKey(Uint8Array.of(v, ...signature.slice(0, 64)), digest, {
        prehash: false,
      });
      expect(secp256k1.verify(signature.slice(0, 64), digest, publicKey, { prehash: false })).toBe(true);
      // Low s (EIP-2): both chains refuse the high form.
      expect(
        secp256k1.verify(signature.slice(0, 64), digest, publicKey, { prehash: false, lowS: true }),
      ).toBe(true);
      const account = keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).slice(1)).slice(-20);
      const row = await stored(keyRef);
      expect(row.public_key).toBe(bytesToHex(secp256k1.Point.fromBytes(publicKey).toBytes(false)));
      if (family === 'evm') expect(address.toLowerCase()).toBe(`0x${bytesToHex(account)}`);
      else expect(bytesToHex(base58.decode(address).slice(1, 21))).toBe(bytesToHex(account));
      await expect(kms.sign(keyRef, utf8ToBytes('not a digest'))).rejects.toThrow(RangeError);
    }
  });

  it('signs a Solana message with ed25519, verified against the address as public key', async () => {
    const { keyRef, address } = await kms.createKey('solana');
    const message = utf8ToBytes('any length of message, as Solana signs the message itself');
    const signature = await kms.sign(keyRef, message);
    expect(signature.length).toBe(64);
    expect(ed25519.verify(signature, message, base58.decode(address))).toBe(true);
    expect(ed25519.verify(signature, utf8ToBytes('another'), base58.decode(address))).toBe(false);
  });

  it('stores no plaintext private key, and nothing it returns carries one', async () => {
    for (const family of CHAIN_FAMILIES) {
      const created = await kms.createKey(family);
      const row = await stored(created.keyRef);
      const secretKey = hexToBytes(sealer.open(row.sealed_private_key));
      expect(secretKey.length).toBe(32);
      const text = JSON.stringify(row).toLowerCase();
      const secretHex = bytesToHex(secretKey);
      for (const form of [
        secretHex,
        Buffer.from(secretKey).toString('base64').toLowerCase(),
        base58.encode(secretKey),
      ]) {
        expect(text).not.toContain(form.toLowerCase());
      }
      expect(JSON.stringify(created)).not.toContain(secretHex);
      expect(Object.keys(created).sort()).toEqual(['address', 'keyRef']);
      // Another master key cannot open it.
      expect(() => new Sealer(randomBytes(32).toString('hex')).open(row.sealed_private_key)).toThrow();
    }
  });

  it('makes a new key every time', async () => {
    const addresses = new Set<string>();
    for (let i = 0; i < 10; i++) addresses.add((await kms.createKey('evm')).address);
    expect(addresses.size).toBe(10);
  });

  it('answers KeyNotFoundError for an unknown or malformed key reference', async () => {
    await expect(kms.address('0190a1c2-0000-7000-8000-000000000000')).rejects.toBeInstanceOf(
      KeyNotFoundError,
    );
    await expect(kms.sign('not-a-uuid', new Uint8Array(32))).rejects.toBeInstanceOf(KeyNotFoundError);
  });

  it('refuses to sign with a sealed key moved onto another key row', async () => {
    const a = await kms.createKey('evm');
    const b = await kms.createKey('evm');
    await db.query(
      'UPDATE kms_keys SET sealed_private_key = (SELECT sealed_private_key FROM kms_keys WHERE id = $2) WHERE id = $1',
      [a.keyRef, b.keyRef],
    );
    await expect(kms.sign(a.keyRef, new Uint8Array(32))).rejects.toThrow(/does not match/);
  });
});
