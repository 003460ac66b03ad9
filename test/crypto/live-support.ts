/** Set-up of the live EVM tests: an app whose live chain is an anvil node with a USDT deployed on it. */
import { expect } from 'vitest';
import { watchDeposits } from '../../src/modules/crypto/deposits.ts';
import type { EvmConfig } from '../../src/providers/chain/evm/config.ts';
import { type Anvil, startAnvil } from '../support/anvil.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type CryptoWorkspace, cryptoWorkspace, drainJobs, type Wallet } from './support.ts';

export const CONFIRMATIONS = 3;
export const LIVE_SEND = '/v1/live/crypto/send';

export interface LiveChain {
  anvil: Anvil;
  token: string;
  ctx: TestContext;
  evm: EvmConfig;
  close(): Promise<void>;
}

export function evmConfigFor(url: string, token: string): EvmConfig {
  return {
    networks: { polygon: { rpcUrl: url, tokens: { USDT: token }, confirmations: CONFIRMATIONS } },
    pollIntervalMs: 100,
    dropTimeoutMs: 0,
    rpcTimeoutMs: 10_000,
  };
}

export async function startLiveChain(): Promise<LiveChain> {
  const anvil = await startAnvil();
  const token = await anvil.deployToken();
  const evm = evmConfigFor(anvil.url, token);
  const ctx = await startTestApp({ evm });
  return {
    anvil,
    token,
    ctx,
    evm,
    close: async () => {
      await ctx.close();
      await anvil.stop();
    },
  };
}

export interface LiveWallet {
  ws: CryptoWorkspace;
  wallet: Wallet;
  /** The live USDT balances of the default party by kind. */
  coins(): Promise<Record<string, string>>;
}

/**
 * A workspace in production with a live polygon wallet that received `deposit` USDT on chain (minted
 * to it, buried under the confirmations, credited by the deposit watcher) and `gas` wei.
 */
export async function fundedLiveWallet(
  chain: LiveChain,
  name: string,
  deposit: bigint,
  gas = 10n ** 18n,
): Promise<LiveWallet> {
  const ws = await cryptoWorkspace(chain.ctx, name);
  await ws.liveApi();
  const created = await ws.session.post('/v1/live/wallets', { network: 'polygon' });
  expect(created.statusCode, created.body).toBe(200);
  const wallet: Wallet = created.json().data;
  if (gas > 0n) await chain.anvil.setGas(wallet.address, gas);
  await chain.anvil.mint(chain.token, wallet.address, deposit);
  await chain.anvil.mine(CONFIRMATIONS);
  expect(await watchDeposits(chain.ctx.deps)).toBeGreaterThanOrEqual(1);
  const coins = () => ws.coins('USDT', 'live');
  expect((await coins()).available).toBe(String(deposit));
  return { ws, wallet, coins };
}

/** The live payment as the API shows it. */
export async function livePayment(ws: CryptoWorkspace, id: string) {
  const res = await ws.session.get(`/v1/live/payments/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: string;
    status: string;
    tx_hash: string | null;
    failure_reason: string | null;
  };
}

/**
 * Runs the worker as time passes and blocks are mined, until the payment is final or the rounds run
 * out: each round moves the test clock past the poll interval, runs due jobs, then mines a block.
 */
export async function untilFinal(chain: LiveChain, ws: CryptoWorkspace, id: string, rounds = 20) {
  for (let i = 0; i < rounds; i++) {
    chain.ctx.clock.advance(2_000);
    await drainJobs(chain.ctx);
    const payment = await livePayment(ws, id);
    if (payment.status === 'completed' || payment.status === 'failed') return payment;
    await chain.anvil.mine(1);
  }
  return livePayment(ws, id);
}
