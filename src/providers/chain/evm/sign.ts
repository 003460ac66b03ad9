/** An EIP-1559 transaction signed by the key manager: the private key never leaves it. */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { keccak256, serializeTransaction } from 'viem';
import type { KeyManager } from '../../kms/provider.ts';
import { transferCalldata } from './erc20.ts';
import type { EvmTransferRow } from './store.ts';

export interface SignedTransaction {
  raw: `0x${string}`;
  hash: `0x${string}`;
}

/**
 * Signs the ERC-20 transfer a planned row describes: keccak-256 of the unsigned type-2 envelope is
 * the digest the key manager signs (r‖s‖v). The same row always signs to the same bytes (RFC 6979),
 * so a signature lost to a crash is made again identically.
 */
export async function signTransfer(keys: KeyManager, row: EvmTransferRow): Promise<SignedTransaction> {
  if (row.key_ref === null || row.nonce === null || row.chain_id === null || row.gas === null) {
    throw new Error(`transfer ${row.payment_id} has no plan to sign`);
  }
  if ((await keys.address(row.key_ref)) !== row.from_address) {
    throw new Error(`key ${row.key_ref} is not the key of ${row.from_address}`);
  }
  const transaction = {
    type: 'eip1559' as const,
    chainId: Number(row.chain_id),
    nonce: Number(row.nonce),
    gas: BigInt(row.gas),
    maxFeePerGas: BigInt(row.max_fee_per_gas!),
    maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas!),
    to: row.token as `0x${string}`,
    value: 0n,
    data: transferCalldata(row.to_address, BigInt(row.amount)),
  };
  const digest = hexToBytes(keccak256(serializeTransaction(transaction)).slice(2));
  const signature = await keys.sign(row.key_ref, digest);
  const raw = serializeTransaction(transaction, {
    r: `0x${bytesToHex(signature.subarray(0, 32))}`,
    s: `0x${bytesToHex(signature.subarray(32, 64))}`,
    yParity: signature[64]!,
  });
  return { raw, hash: keccak256(raw) };
}
