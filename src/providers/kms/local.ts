import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { Queryable } from '../../db/types.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import type { Sealer } from '../../platform/secrets.ts';
import {
  accountBytesFromPublicKey,
  evmAddressFromBytes,
  solanaAddressFromPublicKey,
  tronAddressFromBytes,
} from '../chain/addresses.ts';
import { type ChainFamily, isChainFamily } from '../chain/networks.ts';
import { type KeyManager, KeyNotFoundError } from './provider.ts';

interface KeyRow {
  id: string;
  family: ChainFamily;
  address: string;
  sealed_private_key: string;
}

/** The address of a key pair in a family, from its public key alone. */
export function addressOfPublicKey(family: ChainFamily, publicKey: Uint8Array): string {
  if (family === 'solana') return solanaAddressFromPublicKey(publicKey);
  const account = accountBytesFromPublicKey(publicKey);
  return family === 'evm' ? evmAddressFromBytes(account) : tronAddressFromBytes(account);
}

function publicKeyOf(family: ChainFamily, secretKey: Uint8Array): Uint8Array {
  return family === 'solana' ? ed25519.getPublicKey(secretKey) : secp256k1.getPublicKey(secretKey, false);
}

/**
 * The default key manager: key pairs made here with @noble/curves, private keys sealed with
 * AES-256-GCM under the master key in kms_keys, opened only for the instant of a signature.
 */
export class LocalKeyManager implements KeyManager {
  readonly name = 'local';

  constructor(
    private readonly db: Queryable,
    private readonly sealer: Sealer,
  ) {}

  async createKey(family: ChainFamily): Promise<{ keyRef: string; address: string }> {
    if (!isChainFamily(family)) throw new RangeError(`unknown chain family ${String(family)}`);
    const { secretKey } = family === 'solana' ? ed25519.keygen() : secp256k1.keygen();
    const publicKey = publicKeyOf(family, secretKey);
    const address = addressOfPublicKey(family, publicKey);
    const sealed = this.sealer.seal(bytesToHex(secretKey));
    secretKey.fill(0);
    const id = newId();
    await this.db.query(
      `INSERT INTO kms_keys (id, family, algorithm, public_key, address, sealed_private_key)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, family, family === 'solana' ? 'ed25519' : 'secp256k1', bytesToHex(publicKey), address, sealed],
    );
    return { keyRef: id, address };
  }

  async address(keyRef: string): Promise<string> {
    return (await this.load(keyRef)).address;
  }

  async sign(keyRef: string, payload: Uint8Array): Promise<Uint8Array> {
    const row = await this.load(keyRef);
    if (row.family !== 'solana' && payload.length !== 32) {
      throw new RangeError(`a ${row.family} signature is over a 32-byte digest`);
    }
    const secretKey = hexToBytes(this.sealer.open(row.sealed_private_key));
    try {
      // A sealed key moved onto another row would sign for the wrong wallet: the address must match.
      if (addressOfPublicKey(row.family, publicKeyOf(row.family, secretKey)) !== row.address) {
        throw new Error(`key ${keyRef} does not match its address`);
      }
      if (row.family === 'solana') return ed25519.sign(payload, secretKey);
      const recovered = secp256k1.sign(payload, secretKey, { prehash: false, format: 'recovered' });
      // noble writes the recovery id first; Ethereum and Tron put it last.
      return Uint8Array.of(...recovered.subarray(1), recovered[0]!);
    } finally {
      secretKey.fill(0);
    }
  }

  private async load(keyRef: string): Promise<KeyRow> {
    if (!isUuid(keyRef)) throw new KeyNotFoundError(keyRef);
    const { rows } = await this.db.query<KeyRow>(
      'SELECT id, family, address, sealed_private_key FROM kms_keys WHERE id = $1',
      [keyRef],
    );
    if (!rows[0]) throw new KeyNotFoundError(keyRef);
    return rows[0];
  }
}
