/**
 * A token contract setting in mixed case carries an EIP-55 checksum that catches a typo; the live
 * EVM settings took any 40 hex digits, so a mistyped contract was accepted and sends went to it.
 */
import { expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';

const TOKEN = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const env = { EVM_RPC_URL_POLYGON: 'http://127.0.0.1:8545' };

it('a token contract failing its EIP-55 checksum refuses to start, naming the setting', () => {
  expect(loadConfig({ ...env, EVM_USDT_CONTRACT_POLYGON: TOKEN }).evm.networks.polygon?.tokens.USDT).toBe(
    TOKEN,
  );
  // One digit mistyped (e → f), the case kept: the checksum no longer matches.
  const typo = `${TOKEN.slice(0, -2)}9F`;
  expect(() => loadConfig({ ...env, EVM_USDT_CONTRACT_POLYGON: typo })).toThrow('EVM_USDT_CONTRACT_POLYGON');
  // All lower case carries no checksum: accepted as written.
  expect(
    loadConfig({ ...env, EVM_USDT_CONTRACT_POLYGON: TOKEN.toLowerCase() }).evm.networks.polygon,
  ).toBeDefined();
});
