/**
 * The live deposit watcher reads each token contract's Transfer logs over a block window and matches
 * them to our addresses in memory: a round costs the same few JSON-RPC calls however many wallets
 * there are, and a node that refuses a wide window gets a narrower one.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeposits } from '../../src/modules/crypto/deposits.ts';
import { evmAddressFromBytes } from '../../src/providers/chain/addresses.ts';
import { EvmChainProvider } from '../../src/providers/chain/evm/provider.ts';
import type { WatchedAddress } from '../../src/providers/chain/provider.ts';
import { hasAnvil } from '../support/anvil.ts';
import {
  CONFIRMATIONS,
  evmConfigFor,
  fundedLiveWallet,
  type LiveChain,
  startLiveChain,
} from './live-support.ts';

let chain: LiveChain;

beforeAll(async () => {
  if (hasAnvil) chain = await startLiveChain();
}, 60_000);
afterAll(async () => {
  await chain?.close();
});

/** A JSON-RPC proxy to anvil that counts calls by method and may refuse eth_getLogs over more than `maxRange` blocks. */
async function countingProxy(target: string, maxRange = Number.POSITIVE_INFINITY) {
  const calls = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const call = JSON.parse(body) as {
      id: number;
      method: string;
      params: { fromBlock: string; toBlock: string }[];
    };
    calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
    const range =
      call.method === 'eth_getLogs'
        ? Number(call.params[0]!.toBlock) - Number(call.params[0]!.fromBlock) + 1
        : 0;
    if (range > maxRange) {
      const error = { code: -32005, message: 'query returned more than 10000 results' };
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error }));
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, calls, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The live chain seen through `url`, watching `extra` addresses besides the wallets the database knows. */
function watcherThrough(url: string, extra: WatchedAddress[]) {
  const { db, clock, deps } = chain.ctx;
  const provider = new EvmChainProvider(
    db,
    clock,
    deps.providers.get('kms', 'live'),
    evmConfigFor(url, chain.token),
  );
  const scanIncoming = provider.scanIncoming.bind(provider);
  provider.scanIncoming = (addresses) => scanIncoming([...addresses, ...extra]);
  return { ...deps, providers: deps.providers.replacing('chain', 'live', provider) };
}

const strangers = (n: number): WatchedAddress[] =>
  Array.from({ length: n }, () => ({ network: 'polygon', address: evmAddressFromBytes(randomBytes(20)) }));

describe.skipIf(!hasAnvil)('the live deposit watcher', () => {
  it('credits many wallets with one eth_getLogs per token, whatever the number of wallets watched', async () => {
    const wallets = [];
    for (const name of ['Um', 'Dois', 'Tres']) wallets.push(await fundedLiveWallet(chain, name, 1_000_000n));
    for (const [i, { wallet }] of wallets.entries())
      await chain.anvil.mint(chain.token, wallet.address, BigInt(i + 1) * 2_000_000n);
    await chain.anvil.mint(chain.token, evmAddressFromBytes(randomBytes(20)), 5_000_000n); // not ours
    await chain.anvil.mine(CONFIRMATIONS);

    const proxy = await countingProxy(chain.anvil.url);
    try {
      expect(await watchDeposits(watcherThrough(proxy.url, strangers(5000)))).toBe(3);
    } finally {
      await proxy.close();
    }
    for (const [i, { coins }] of wallets.entries())
      expect((await coins()).available).toBe(String(1_000_000n + BigInt(i + 1) * 2_000_000n));
    expect(proxy.calls.get('eth_getLogs')).toBe(1);
    const total = [...proxy.calls.values()].reduce((a, b) => a + b, 0);
    // eth_chainId and eth_blockNumber once, eth_getLogs once, at most one block read per deposit.
    expect(total).toBeLessThanOrEqual(3 + 3);
  });

  it('a node that refuses a wide window gets a narrower one, and the deposits in it are still credited', async () => {
    const { wallet, coins } = await fundedLiveWallet(chain, 'Estreito', 1_000_000n);
    await chain.anvil.mine(40);
    await chain.anvil.mint(chain.token, wallet.address, 3_000_000n);
    await chain.anvil.mine(CONFIRMATIONS);
    const proxy = await countingProxy(chain.anvil.url, 16);
    try {
      const deps = watcherThrough(proxy.url, []);
      let credited = 0;
      for (let round = 0; round < 10 && (await coins()).available !== '4000000'; round++)
        credited += await watchDeposits(deps);
      expect(credited).toBe(1);
    } finally {
      await proxy.close();
    }
    expect(await coins()).toMatchObject({ available: '4000000' });
  });
});
