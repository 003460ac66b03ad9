/**
 * Live crypto sends and deposits on a real EVM node (anvil) with an ERC-20 deployed by the test: the
 * JSON-RPC adapter signs with the wallet's KMS key, waits for the confirmations, detects dropped and
 * replaced transactions, and the deposit watcher credits confirmed Transfer logs once.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeposits } from '../../src/modules/crypto/deposits.ts';
import { EvmChainProvider } from '../../src/providers/chain/evm/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { hasAnvil } from '../support/anvil.ts';
import { expectBooksVerified } from '../support/books.ts';
import {
  CONFIRMATIONS,
  evmConfigFor,
  fundedLiveWallet,
  LIVE_SEND,
  type LiveChain,
  type LiveWallet,
  livePayment,
  startLiveChain,
  untilFinal,
} from './live-support.ts';
import { drainJobs, OUTSIDE } from './support.ts';

const FEE = 50_000n; // polygon's network fee
let chain: LiveChain;

beforeAll(async () => {
  if (hasAnvil) chain = await startLiveChain();
}, 60_000);
afterAll(async () => {
  await chain?.close();
});

const sendBody = (amount: bigint, to = OUTSIDE.evm) => ({
  amount_minor: String(amount),
  to_address: to,
  network: 'polygon',
  currency: 'USDT',
});

describe.skipIf(!hasAnvil)('live EVM sends on anvil', () => {
  it('a USDT send is signed by the wallet key, broadcast, completed after the confirmations; balances agree on chain and in the books', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Envio Real', 100_000_000n);
    const outsideBefore = await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm);
    const sent = await ws.session.post(LIVE_SEND, sendBody(25_000_000n));
    expect(sent.statusCode, sent.body).toBe(200);
    const id: string = sent.json().data.id;
    expect(sent.json().data).toMatchObject({ status: 'created', fee_minor: String(FEE) });
    expect(await coins()).toMatchObject({ available: '74950000', locked: '25050000' });

    await drainJobs(chain.ctx);
    const broadcast = await livePayment(ws, id);
    expect(broadcast.status).toBe('processing');
    expect(broadcast.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // Mined at once (automine) but not final: one block deep of three.
    const receipt = await chain.anvil.receipt(broadcast.tx_hash!);
    expect(receipt.status).toBe('0x1');
    expect((await livePayment(ws, id)).status).toBe('processing');

    const done = await untilFinal(chain, ws, id);
    expect(done).toMatchObject({ status: 'completed', tx_hash: broadcast.tx_hash });
    expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore + 25_000_000n);
    expect(await chain.anvil.tokenBalance(chain.token, wallet.address)).toBe(75_000_000n);
    // The transaction is the wallet's own (signed by its KMS key), its first nonce.
    const tx = await chain.anvil.rpc.call<{ from: string; nonce: string; type: string }>(
      'eth_getTransactionByHash',
      [broadcast.tx_hash],
    );
    expect(tx).toMatchObject({ from: wallet.address.toLowerCase(), nonce: '0x0', type: '0x2' });
    expect(await coins()).toMatchObject({ available: '74950000', locked: '0' });
    expect(await ws.systemNet('crypto_custody', 'USDT', 'live')).toBe(-75_000_000n);
    expect(await ws.systemNet('fee_revenue', 'USDT', 'live')).toBe(FEE);

    // More rounds change nothing; the deposit that funded the wallet stays credited once.
    await untilFinal(chain, ws, id, 2);
    await watchDeposits(chain.ctx.deps);
    expect(await ws.paymentCount('crypto_deposit', 'live')).toBe(1);
    expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore + 25_000_000n);
  });

  it('two sends from one wallet worked by concurrent workers take distinct nonces and both complete', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Dois Envios', 50_000_000n);
    const ids: string[] = [];
    for (const amount of [10_000_000n, 20_000_000n]) {
      const res = await ws.session.post(LIVE_SEND, sendBody(amount));
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().data.id);
    }
    await Promise.all([runJobs(chain.ctx.deps), runJobs(chain.ctx.deps)]);
    for (const id of ids) expect((await untilFinal(chain, ws, id)).status).toBe('completed');
    const nonces = await Promise.all(
      ids.map(async (id) => {
        const hash = (await livePayment(ws, id)).tx_hash;
        return (await chain.anvil.rpc.call<{ nonce: string }>('eth_getTransactionByHash', [hash])).nonce;
      }),
    );
    expect(nonces.sort()).toEqual(['0x0', '0x1']);
    expect(await chain.anvil.tokenBalance(chain.token, wallet.address)).toBe(20_000_000n);
    expect(await coins()).toMatchObject({ available: String(20_000_000n - 2n * FEE), locked: '0' });
  });

  it('a wallet without native gas: the send fails insufficient_gas, nothing is broadcast, the money is returned', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Sem Gas', 30_000_000n, 0n);
    const res = await ws.session.post(LIVE_SEND, sendBody(10_000_000n));
    expect(res.statusCode, res.body).toBe(200);
    const failed = await untilFinal(chain, ws, res.json().data.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'insufficient_gas', tx_hash: null });
    expect(await ws.eventTypes(failed.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.failed',
    ]);
    expect(await coins()).toMatchObject({ available: '30000000', locked: '0' });
    expect(await chain.anvil.rpc.nonceAt(wallet.address, 'pending')).toBe(0n);
    expect(await chain.anvil.tokenBalance(chain.token, wallet.address)).toBe(30_000_000n);
  });

  it('a wallet whose tokens left it on chain: the transfer would revert, fails transfer_rejected, money returned', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Sem Tokens', 10_000_000n);
    // The key's holder moves the tokens away outside Lastro: the books still show 10 USDT.
    const away = `0xa9059cbb${OUTSIDE.evm.slice(2).toLowerCase().padStart(64, '0')}${10_000_000n.toString(16).padStart(64, '0')}`;
    await chain.anvil.rpc.call('anvil_impersonateAccount', [wallet.address]);
    await chain.anvil.receipt(await chain.anvil.send(wallet.address, chain.token, away));
    await chain.anvil.rpc.call('anvil_stopImpersonatingAccount', [wallet.address]);
    const res = await ws.session.post(LIVE_SEND, sendBody(5_000_000n));
    expect(res.statusCode, res.body).toBe(200);
    const failed = await untilFinal(chain, ws, res.json().data.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'transfer_rejected', tx_hash: null });
    expect(await coins()).toMatchObject({ available: '10000000', locked: '0' });
    expect(await chain.anvil.rpc.nonceAt(wallet.address, 'pending')).toBe(1n); // only the move away
  });

  it('Tron and Solana have no live chain yet: 503 provider_unavailable, nothing moves', async () => {
    const { ws, coins } = await fundedLiveWallet(chain, 'So Polygon', 5_000_000n);
    const tron = await ws.session.post('/v1/live/wallets', { network: 'tron' });
    expect(tron.statusCode, tron.body).toBe(200);
    const before = await coins();
    // The party's USDT (received on polygon) covers it: only the missing Tron chain refuses it.
    const res = await ws.session.post(LIVE_SEND, { ...sendBody(1_000_000n, OUTSIDE.tron), network: 'tron' });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('provider_unavailable');
    expect(await coins()).toEqual(before);
    expect(await ws.paymentCount('crypto_send', 'live')).toBe(0);
  });
});

/** Runs `fn` with automine off: sent transactions wait in the node's pool. */
async function withoutMining<T>(fn: () => Promise<T>): Promise<T> {
  await chain.anvil.rpc.call('evm_setAutomine', [false]);
  try {
    return await fn();
  } finally {
    await chain.anvil.rpc.call('evm_setAutomine', [true]);
  }
}

/** A live send broadcast into the pool (processing), then dropped from it by the node. */
async function sendThenDrop(ws: LiveWallet['ws'], amount: bigint): Promise<{ id: string; hash: string }> {
  const res = await ws.session.post(LIVE_SEND, sendBody(amount));
  const id: string = res.json().data.id;
  await drainJobs(chain.ctx);
  const pending = await livePayment(ws, id);
  expect(pending.status).toBe('processing');
  expect(await chain.anvil.rpc.transaction(pending.tx_hash!)).not.toBeNull();
  await chain.anvil.rpc.call('anvil_dropTransaction', [pending.tx_hash]);
  expect(await chain.anvil.rpc.transaction(pending.tx_hash!)).toBeNull();
  return { id, hash: pending.tx_hash! };
}

describe.skipIf(!hasAnvil)('dropped and replaced transactions', () => {
  it('a transaction the node drops is broadcast again with the same nonce and completes once', async () => {
    const { ws, wallet } = await fundedLiveWallet(chain, 'Descartada', 40_000_000n);
    const outsideBefore = await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm);
    const id = await withoutMining(async () => {
      const { id, hash } = await sendThenDrop(ws, 15_000_000n);
      // The poll finds it gone and broadcasts the very same bytes again.
      chain.ctx.clock.advance(2_000);
      await drainJobs(chain.ctx);
      expect(await chain.anvil.rpc.transaction(hash)).not.toBeNull();
      return id;
    });
    await chain.anvil.mine(1);
    const done = await untilFinal(chain, ws, id);
    expect(done.status).toBe('completed');
    expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore + 15_000_000n);
    expect(await chain.anvil.rpc.nonceAt(wallet.address, 'latest')).toBe(1n);
  });

  it('a transaction mined with status 0 (the tokens left before it ran) fails transaction_reverted once final, money returned', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Revertida', 12_000_000n);
    const id = await withoutMining(async () => {
      const res = await ws.session.post(LIVE_SEND, sendBody(6_000_000n));
      await drainJobs(chain.ctx);
      // Before the block: the token's storage (balance slot = holder address) says the wallet holds 0.
      const slot = `0x${wallet.address.slice(2).toLowerCase().padStart(64, '0')}`;
      await chain.anvil.rpc.call('anvil_setStorageAt', [chain.token, slot, `0x${'0'.repeat(64)}`]);
      return res.json().data.id as string;
    });
    await chain.anvil.mine(1);
    const hash = (await livePayment(ws, id)).tx_hash!;
    expect((await chain.anvil.receipt(hash)).status).toBe('0x0');
    expect((await livePayment(ws, id)).status).toBe('processing');
    const failed = await untilFinal(chain, ws, id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'transaction_reverted', tx_hash: hash });
    expect(await coins()).toMatchObject({ available: '12000000', locked: '0' });
  });

  it('a dropped transaction whose nonce another transaction took fails transaction_replaced, money returned', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Substituida', 40_000_000n);
    const outsideBefore = await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm);
    const id = await withoutMining(async () => {
      const { id } = await sendThenDrop(ws, 15_000_000n);
      // Someone else with the key spends nonce 0 first (a plain self-transfer of no value).
      await chain.anvil.rpc.call('anvil_impersonateAccount', [wallet.address]);
      await chain.anvil.rpc.call('eth_sendTransaction', [
        { from: wallet.address, to: wallet.address, value: '0x0', nonce: '0x0' },
      ]);
      await chain.anvil.rpc.call('anvil_stopImpersonatingAccount', [wallet.address]);
      return id;
    });
    await chain.anvil.mine(CONFIRMATIONS);
    const failed = await untilFinal(chain, ws, id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'transaction_replaced' });
    expect(await coins()).toMatchObject({ available: '40000000', locked: '0' });
    expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore);
    expect(await chain.anvil.tokenBalance(chain.token, wallet.address)).toBe(40_000_000n);
  });
});

/** A JSON-RPC proxy to anvil that loses the answer to eth_sendRawTransaction, as a worker dying mid-call would. */
async function flakyProxy(target: string, forward: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const isSend = JSON.parse(body).method === 'eth_sendRawTransaction';
    if (isSend && !forward) return req.socket.destroy();
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    if (isSend) return req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe.skipIf(!hasAnvil)('a worker restarted mid-send', () => {
  for (const [when, forward] of [
    ['after signing, before the node got it', false],
    ['after the node took it, before the answer was recorded', true],
  ] as const) {
    it(`${when}: the restarted worker sends the same transaction, paid once`, async () => {
      const { ws, wallet } = await fundedLiveWallet(chain, `Reinicio ${forward}`, 20_000_000n);
      const outsideBefore = await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm);
      const res = await ws.session.post(LIVE_SEND, sendBody(5_000_000n));
      const id: string = res.json().data.id;
      const proxy = await flakyProxy(chain.anvil.url, forward);
      try {
        const { db, clock, deps } = chain.ctx;
        const dying = new EvmChainProvider(
          db,
          clock,
          deps.providers.get('kms', 'live'),
          evmConfigFor(proxy.url, chain.token),
        );
        await runJobs({ ...deps, providers: deps.providers.replacing('chain', 'live', dying) });
      } finally {
        proxy.server.close();
      }
      expect((await livePayment(ws, id)).status).toBe('created');
      const { rows } = await chain.ctx.db.query<{ tx_hash: string; nonce: bigint }>(
        'SELECT tx_hash, nonce FROM evm_transfers WHERE payment_id = $1',
        [id],
      );
      expect(rows).toHaveLength(1);
      const done = await untilFinal(chain, ws, id);
      expect(done).toMatchObject({ status: 'completed', tx_hash: rows[0]!.tx_hash });
      expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore + 5_000_000n);
      expect(await chain.anvil.rpc.nonceAt(wallet.address, 'latest')).toBe(1n);
    });
  }
});

describe.skipIf(!hasAnvil)('live deposits', () => {
  it('a deposit is credited once, only after the confirmations; a reorg within the depth credits only the canonical transfer', async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Deposito Vivo', 1_000_000n);
    const snapshot = await chain.anvil.rpc.call<string>('evm_snapshot');
    const orphan = await chain.anvil.mint(chain.token, wallet.address, 7_000_000n);
    await chain.anvil.mine(1); // two blocks deep of three
    expect(await watchDeposits(chain.ctx.deps)).toBe(0);
    expect(await coins()).toMatchObject({ available: '1000000' });

    // The chain reorganises: the block with that transfer is gone, another one pays 9 USDT.
    expect(await chain.anvil.rpc.call('evm_revert', [snapshot])).toBe(true);
    await chain.anvil.mint(chain.token, OUTSIDE.evm, 1n); // the new branch differs from the old one
    const canonical = await chain.anvil.mint(chain.token, wallet.address, 9_000_000n);
    expect(canonical).not.toBe(orphan);
    expect(await watchDeposits(chain.ctx.deps)).toBe(0);
    await chain.anvil.mine(CONFIRMATIONS);
    expect(await watchDeposits(chain.ctx.deps)).toBe(1);
    expect(await watchDeposits(chain.ctx.deps)).toBe(0);
    expect(await coins()).toMatchObject({ available: '10000000' });
    const deposits = (await ws.session.get(`/v1/live/wallets/${wallet.id}/transactions`)).json().data as {
      kind: string;
      tx_hash: string;
      amount_minor: string;
      status: string;
    }[];
    expect(
      deposits.filter((p) => p.kind === 'crypto_deposit').map((p) => [p.tx_hash, p.amount_minor]),
    ).toContainEqual([canonical, '9000000']);
    expect(deposits.some((p) => p.tx_hash === orphan)).toBe(false);
    expect(deposits.filter((p) => p.kind === 'crypto_deposit')).toHaveLength(2);
  });
});

describe.skipIf(!hasAnvil)('the books after every live chain flow above', () => {
  it('lastro verify finds nothing wrong and the seal chain covers every journal', async () => {
    await expectBooksVerified(chain.ctx.deps);
  });
});
