import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';

const TOKEN = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const base = { EVM_RPC_URL_POLYGON: 'http://127.0.0.1:8545', EVM_USDT_CONTRACT_POLYGON: TOKEN };

describe('live EVM settings', () => {
  it('no EVM setting: no live EVM network (live sends stay 503)', () => {
    expect(loadConfig({}).evm.networks).toEqual({});
  });

  it('an RPC URL and a token contract make a network live, with its default confirmations', () => {
    expect(loadConfig(base).evm.networks).toEqual({
      polygon: { rpcUrl: base.EVM_RPC_URL_POLYGON, tokens: { USDT: TOKEN }, confirmations: 64 },
    });
    expect(loadConfig({ ...base, EVM_CONFIRMATIONS_POLYGON: '5' }).evm.networks.polygon?.confirmations).toBe(
      5,
    );
  });

  it.each([
    [{ EVM_RPC_URL_POLYGON: 'http://127.0.0.1:8545' }, 'EVM_USDT_CONTRACT_POLYGON'],
    [{ EVM_USDT_CONTRACT_BASE: TOKEN }, 'EVM_RPC_URL_BASE'],
    [{ EVM_CONFIRMATIONS_ARBITRUM: '3' }, 'EVM_RPC_URL_ARBITRUM'],
    [{ ...base, EVM_USDT_CONTRACT_POLYGON: '0x1234' }, 'EVM_USDT_CONTRACT_POLYGON'],
    [{ ...base, EVM_RPC_URL_POLYGON: 'ftp://node' }, 'EVM_RPC_URL_POLYGON'],
    [{ ...base, EVM_RPC_URL_POLYGON: 'https://me:secret@node.example' }, 'EVM_RPC_URL_POLYGON'],
    [{ ...base, EVM_CONFIRMATIONS_POLYGON: '0' }, 'EVM_CONFIRMATIONS_POLYGON'],
    [{ EVM_POLL_INTERVAL_MS: 'fast' }, 'EVM_POLL_INTERVAL_MS'],
  ])('incomplete or bad settings refuse to start, naming the setting (%o)', (env, name) => {
    expect(() => loadConfig(env)).toThrow(name);
  });
});
