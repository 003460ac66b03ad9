/** The two pieces of ERC-20 the adapter speaks: the transfer call and the Transfer event. */
import { toChecksumAddress } from '../addresses.ts';

/** keccak256("transfer(address,uint256)")[0..4]. */
const TRANSFER_SELECTOR = 'a9059cbb';
/** keccak256("Transfer(address,address,uint256)"): topic 0 of every ERC-20 transfer log. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const word = (hexDigits: string) => hexDigits.padStart(64, '0');

/** Calldata of transfer(to, amount), amount in the token's base units. */
export function transferCalldata(to: string, amount: bigint): `0x${string}` {
  if (amount <= 0n || amount >= 2n ** 256n) throw new RangeError('amount out of uint256 range');
  return `0x${TRANSFER_SELECTOR}${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`;
}

/** An address as an indexed topic (left-padded to 32 bytes). */
export const addressTopic = (address: string) => `0x${word(address.slice(2).toLowerCase())}`;

/** The address in an indexed topic, EIP-55. */
export const topicAddress = (topic: string) => toChecksumAddress(`0x${topic.slice(-40)}`);
