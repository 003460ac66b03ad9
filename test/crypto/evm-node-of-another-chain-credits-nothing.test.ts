/**
 * EVM_RPC_URL_POLYGON pointing at a node of another chain (a copy-paste of the Ethereum URL) was
 * taken at its word: deposits on that chain were credited as polygon USDT, and sends were signed
 * with whatever chain id the node claimed. The node's eth_chainId must be the network's (the send
 * path checks it first too, and a send stays held until the node is right).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchDeposits } from '../../src/modules/crypto/deposits.ts';
import { evmConfigFor } from '../crypto/live-support.ts';
import { cryptoWorkspace } from '../crypto/support.ts';
import { type Anvil, hasAnvil, startAnvil } from '../support/anvil.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let anvil: Anvil;
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  if (!hasAnvil) return;
  anvil = await startAnvil(1); // an Ethereum mainnet node, configured as polygon's
  token = await anvil.deployToken();
  ctx = await startTestApp({ evm: evmConfigFor(anvil.url, token) });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await anvil?.stop();
});

it.skipIf(!hasAnvil)('a node answering another chain id credits none of its deposits', async () => {
  const ws = await cryptoWorkspace(ctx, 'Outra Rede');
  await ws.liveApi();
  const created = await ws.session.post('/v1/live/wallets', { network: 'polygon' });
  expect(created.statusCode, created.body).toBe(200);
  const wallet = created.json().data;
  await anvil.mint(token, wallet.address, 5_000_000n);
  await anvil.mine(5);
  await watchDeposits(ctx.deps).catch(() => 0);
  expect(await ws.paymentCount('crypto_deposit', 'live')).toBe(0);
  expect((await ws.coins('USDT', 'live')).available ?? '0').toBe('0');
});
