/**
 * A worker's eth_sendRawTransaction reached the node but its answer was lost (timeout, crash): the
 * transfer stays 'signed' with broadcasts = 0. The retry's broadcast was refused by the node with an
 * error other than "already known" (a rate limit, another client's wording of "known"), and that
 * first-broadcast refusal failed the payment and returned the money while the transaction mined.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EvmChainProvider } from '../../src/providers/chain/evm/provider.ts';
import { runJobs } from '../../src/worker.ts';
import {
  evmConfigFor,
  fundedLiveWallet,
  LIVE_SEND,
  type LiveChain,
  livePayment,
  startLiveChain,
  untilFinal,
} from '../crypto/live-support.ts';
import { OUTSIDE } from '../crypto/support.ts';
import { hasAnvil } from '../support/anvil.ts';

let chain: LiveChain;
beforeAll(async () => {
  if (hasAnvil) chain = await startLiveChain();
}, 60_000);
afterAll(async () => {
  await chain?.close();
});

/** A JSON-RPC proxy to anvil whose eth_sendRawTransaction either reaches anvil and loses the answer, or is refused. */
async function proxy(
  target: string,
  send: 'lose-answer' | 'refuse',
): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body);
    const isSend = request.method === 'eth_sendRawTransaction';
    if (isSend && send === 'refuse') {
      const error = { code: -32005, message: 'request rate exceeded' };
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error }));
    }
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

it.skipIf(!hasAnvil)(
  'the transaction the node took is not failed by a refused rebroadcast: completed, money not returned',
  async () => {
    const { ws, wallet, coins } = await fundedLiveWallet(chain, 'Resposta Perdida', 20_000_000n);
    const outsideBefore = await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm);
    const res = await ws.session.post(LIVE_SEND, {
      amount_minor: '5000000',
      to_address: OUTSIDE.evm,
      network: 'polygon',
      currency: 'USDT',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id: string = res.json().data.id;
    const { db, clock, deps } = chain.ctx;
    for (const mode of ['lose-answer', 'refuse'] as const) {
      clock.advance(120_000); // past the job's retry backoff
      const node = await proxy(chain.anvil.url, mode);
      try {
        const provider = new EvmChainProvider(
          db,
          clock,
          deps.providers.get('kms', 'live'),
          evmConfigFor(node.url, chain.token),
        );
        await runJobs({ ...deps, providers: deps.providers.replacing('chain', 'live', provider) }).catch(
          () => {},
        );
      } finally {
        node.server.close();
      }
    }
    // The refused rebroadcast ran: the transfer is in the node's hands, not failed.
    expect((await livePayment(ws, id)).status).toBe('processing');
    const done = await untilFinal(chain, ws, id);
    expect(done.status).toBe('completed');
    expect(await chain.anvil.tokenBalance(chain.token, OUTSIDE.evm)).toBe(outsideBefore + 5_000_000n);
    expect(await chain.anvil.tokenBalance(chain.token, wallet.address)).toBe(15_000_000n);
    expect(await coins()).toMatchObject({ available: String(15_000_000n - 50_000n), locked: '0' });
  },
);
