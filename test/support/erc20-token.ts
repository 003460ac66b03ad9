/**
 * A minimal ERC-20 for the anvil tests, assembled here from EVM opcodes (no compiler download). What
 * it does, in Solidity terms (balances live in storage slot = holder address, a test token's liberty):
 *
 *   function transfer(address to, uint256 amount) returns (bool) {
 *     require(balance[msg.sender] >= amount);
 *     balance[msg.sender] -= amount; balance[to] += amount;
 *     emit Transfer(msg.sender, to, amount); return true;
 *   }
 *   function mint(address to, uint256 amount) returns (bool) {   // open to anyone: a test token
 *     balance[to] += amount; emit Transfer(address(0), to, amount); return true;
 *   }
 *   function balanceOf(address holder) view returns (uint256) { return balance[holder]; }
 *   function decimals() view returns (uint8) { return 6; }
 */
import { TRANSFER_TOPIC } from '../../src/providers/chain/evm/erc20.ts';

const OP = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  EQ: 0x14,
  SHR: 0x1c,
  CALLER: 0x33,
  CALLDATALOAD: 0x35,
  CODECOPY: 0x39,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMPI: 0x57,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  SWAP1: 0x90,
  LOG3: 0xa3,
  RETURN: 0xf3,
  REVERT: 0xfd,
} as const;
type Op = keyof typeof OP;
/** An opcode, a push of literal bytes (hex), a label's position (PUSH2), or a label definition. */
type Item = Op | { push: string } | { to: string } | { label: string };

function assemble(items: Item[]): string {
  const size = (item: Item) =>
    typeof item === 'string' ? 1 : 'push' in item ? 1 + item.push.length / 2 : 'to' in item ? 3 : 1;
  const labels = new Map<string, number>();
  let offset = 0;
  for (const item of items) {
    if (typeof item === 'object' && 'label' in item) labels.set(item.label, offset);
    offset += size(item);
  }
  return items
    .map((item) => {
      if (typeof item === 'string') return OP[item].toString(16).padStart(2, '0');
      if ('push' in item) return (0x5f + item.push.length / 2).toString(16) + item.push;
      if ('to' in item) return `61${labels.get(item.to)!.toString(16).padStart(4, '0')}`;
      return OP.JUMPDEST.toString(16);
    })
    .join('');
}

const push = (hexBytes: string): Item => ({ push: hexBytes });
const returnWord: Item[] = [push('00'), 'MSTORE', push('20'), push('00'), 'RETURN'];
const dispatch = (selector: string, label: string): Item[] => [
  'DUP1',
  push(selector),
  'EQ',
  { to: label },
  'JUMPI',
];
/** Stack [to, amount]: balance[to] += amount, amount in memory word 0; the stack is left as it was. */
const credit: Item[] = ['DUP1', 'SLOAD', 'DUP3', 'ADD', 'DUP2', 'SSTORE', 'DUP2', push('00'), 'MSTORE'];
/** Stack [to, amount] → emits Transfer(from on top of it, to, amount) with amount in memory word 0. */
const emit: Item[] = [push(TRANSFER_TOPIC.slice(2)), push('20'), push('00'), 'LOG3'];

const RUNTIME = assemble([
  push('00'),
  'CALLDATALOAD',
  push('e0'),
  'SHR',
  ...dispatch('a9059cbb', 'transfer'),
  ...dispatch('40c10f19', 'mint'),
  ...dispatch('70a08231', 'balanceOf'),
  ...dispatch('313ce567', 'decimals'),
  { label: 'fail' },
  push('00'),
  'DUP1',
  'REVERT',
  { label: 'balanceOf' },
  push('04'),
  'CALLDATALOAD',
  'SLOAD',
  ...returnWord,
  { label: 'decimals' },
  push('06'),
  ...returnWord,
  { label: 'mint' },
  push('24'),
  'CALLDATALOAD',
  push('04'),
  'CALLDATALOAD',
  ...credit,
  push('00'),
  ...emit,
  push('01'),
  ...returnWord,
  // [amount] [to amount] [fromBal to amount] → fail when fromBal < amount → sstore(caller, fromBal - amount)
  { label: 'transfer' },
  push('24'),
  'CALLDATALOAD',
  push('04'),
  'CALLDATALOAD',
  'CALLER',
  'SLOAD',
  'DUP3',
  'DUP2',
  'LT',
  { to: 'fail' },
  'JUMPI',
  'DUP3',
  'SWAP1',
  'SUB',
  'CALLER',
  'SSTORE',
  ...credit,
  'CALLER',
  ...emit,
  push('01'),
  ...returnWord,
]);

/** Creation code: copies the runtime after itself into memory and returns it. */
export function tokenCreationCode(): `0x${string}` {
  const length = (RUNTIME.length / 2).toString(16).padStart(4, '0');
  const prefix = (offset: number) =>
    `61${length}80` + `61${offset.toString(16).padStart(4, '0')}` + '6000' + '39' + '6000' + 'f3';
  const offset = prefix(0).length / 2;
  return `0x${prefix(offset)}${RUNTIME}`;
}
