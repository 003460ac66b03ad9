/**
 * A real local EVM node for the live chain tests: anvil (from @foundry-rs/anvil-linux-amd64, installed by npm ci on Linux x64)
 * on a free port of 127.0.0.1, killed after. Tests skip only when its binary is missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { JsonRpc, type RpcReceipt } from '../../src/providers/chain/evm/rpc.ts';
import { tokenCreationCode } from './erc20-token.ts';

export const ANVIL_BIN = path.resolve(import.meta.dirname, '../../node_modules/.bin/anvil');
export const hasAnvil = existsSync(ANVIL_BIN);

export interface Anvil {
  url: string;
  rpc: JsonRpc;
  /** Anvil's first funded development account (unlocked: it sends without a key). */
  dev: string;
  stop(): Promise<void>;
  /** Mines `blocks` blocks at once. */
  mine(blocks?: number): Promise<void>;
  deployToken(): Promise<string>;
  /** Sends from an unlocked account and mines it when automine is on; returns the tx hash. */
  send(from: string, to: string, data: string): Promise<string>;
  /** The receipt of a mined transaction; automine answers before the block is sealed on a busy machine. */
  receipt(hash: string): Promise<RpcReceipt>;
  mint(token: string, to: string, amount: bigint): Promise<string>;
  tokenBalance(token: string, holder: string): Promise<bigint>;
  setGas(address: string, wei: bigint): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const word = (hexDigits: string) => hexDigits.padStart(64, '0');

/** A node of `chainId`: polygon's (137) by default, the network the live tests configure it as. */
export async function startAnvil(chainId = 137): Promise<Anvil> {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
  const child: ChildProcess = spawn(ANVIL_BIN, args, { stdio: 'ignore' });
  // A test process that dies without its afterAll takes its node with it.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const url = `http://127.0.0.1:${port}`;
  const rpc = new JsonRpc(url, 10_000);
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await rpc.blockNumber();
      break;
    } catch (error) {
      if (Date.now() > until || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const [dev] = await rpc.call<string[]>('eth_accounts');
  const anvil: Anvil = {
    url,
    rpc,
    dev: dev!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async mine(blocks = 1) {
      await rpc.call('anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    async deployToken() {
      const hash = await rpc.call<string>('eth_sendTransaction', [{ from: dev, data: tokenCreationCode() }]);
      return ((await anvil.receipt(hash)) as unknown as { contractAddress: string }).contractAddress;
    },
    async receipt(hash) {
      for (let tries = 0; tries < 100; tries++) {
        const receipt = await rpc.receipt(hash);
        if (receipt) return receipt;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${hash} was not mined`);
    },
    send: (from, to, data) => rpc.call<string>('eth_sendTransaction', [{ from, to, data }]),
    async mint(token, to, amount) {
      const data = `0x40c10f19${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`;
      const hash = await anvil.send(dev!, token, data);
      // Automine answers before its block exists: blocks mined right after could come first and leave
      // the transfer shallower than the confirmations the caller then mines (a CI flake on a loaded box).
      await anvil.receipt(hash);
      return hash;
    },
    async tokenBalance(token, holder) {
      const data = `0x70a08231${word(holder.slice(2).toLowerCase())}`;
      return BigInt(await rpc.call<string>('eth_call', [{ to: token, data }, 'latest']));
    },
    async setGas(address, wei) {
      await rpc.call('anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    },
  };
  return anvil;
}
