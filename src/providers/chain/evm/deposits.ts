/**
 * Deposits on EVM networks: ERC-20 Transfer logs of the configured token contracts into our
 * addresses, read from a stored block cursor per token contract and only from blocks already
 * `confirmations` deep, so a reorganisation shallower than that never reaches what is read.
 *
 * Each round asks for ALL the Transfer logs of each token over its window and keeps those whose
 * `to` is one of our addresses, matched in memory. Filtering by address in the request (topic 2 as
 * a list) would make the calls grow with the number of wallets: nodes and RPC vendors cap a topic
 * list and a request's size, so a million wallets need thousands of calls per window. Read whole,
 * a round costs one eth_getLogs per token (plus one block read per block holding a deposit of ours,
 * when the node gives no blockTimestamp), whatever the wallets; the price is reading other people's
 * transfers, which a node may refuse for a busy token over a wide window: the window is halved until
 * it answers, down to one block, and the width that worked is kept for the next round.
 */
import type { Database } from '../../../db/types.ts';
import { validateAddress } from '../addresses.ts';
import { fromChainUnits, type Network, type Stablecoin } from '../networks.ts';
import type { IncomingScan, IncomingTransfer, WatchedAddress } from '../provider.ts';
import type { EvmConfig, EvmNetworkConfig } from './config.ts';
import { TRANSFER_TOPIC, topicAddress } from './erc20.ts';
import { hex, type JsonRpc, RpcError, type RpcLog } from './rpc.ts';
import { advanceLogCursor, logCursor } from './store.ts';

/** Blocks read per eth_getLogs at most (nodes commonly cap the range); the next round reads on. */
export const LOG_RANGE = 1000n;
/** Where a token's first scan starts: this many final blocks back from its head. */
export const FIRST_SCAN_BACKLOG = 10_000n;

/** The window width that last worked per network and token: a busy token is not refused every round. */
export type LogSpans = Map<string, bigint>;

interface TokenScan {
  token: string;
  transfers: IncomingTransfer[];
  nextBlock: bigint;
}

/** A log's block time: the node's blockTimestamp when it gives one, else its block's (read once). */
async function blockTime(rpc: JsonRpc, log: RpcLog, cache: Map<string, Date>): Promise<Date> {
  const stamped = (log as RpcLog & { blockTimestamp?: string }).blockTimestamp;
  if (stamped) return new Date(Number(BigInt(stamped)) * 1000);
  let at = cache.get(log.blockNumber);
  if (!at) {
    const block = await rpc.getBlock(BigInt(log.blockNumber));
    at = new Date(Number(BigInt(block!.timestamp)) * 1000);
    cache.set(log.blockNumber, at);
  }
  return at;
}

/** Every Transfer log of `token` from `from` to at most `to`, and the last block it covers. */
async function transferLogs(
  rpc: JsonRpc,
  token: string,
  from: bigint,
  to: bigint,
  spans: LogSpans,
  spanKey: string,
): Promise<{ logs: RpcLog[]; last: bigint }> {
  const span = spans.get(spanKey) ?? LOG_RANGE;
  let last = to < from + span - 1n ? to : from + span - 1n;
  for (;;) {
    try {
      const filter = { fromBlock: hex(from), toBlock: hex(last), address: token, topics: [TRANSFER_TOPIC] };
      const logs = await rpc.call<RpcLog[]>('eth_getLogs', [filter]);
      const worked = last - from + 1n;
      spans.set(spanKey, worked * 2n < LOG_RANGE ? worked * 2n : LOG_RANGE);
      return { logs, last };
    } catch (error) {
      // A node's refusal of a window (too many results, range too wide) is answered by a smaller one.
      if (!(error instanceof RpcError) || last === from) throw error;
      last = from + (last - from) / 2n;
    }
  }
}

async function scanToken(
  db: Database,
  network: Network,
  rpc: JsonRpc,
  coin: Stablecoin,
  token: string,
  final: bigint,
  ours: Set<string>,
  spans: LogSpans,
): Promise<TokenScan | undefined> {
  const from =
    (await logCursor(db, network, token)) ??
    (final >= FIRST_SCAN_BACKLOG ? final - FIRST_SCAN_BACKLOG + 1n : 0n);
  if (from > final) return undefined;
  const { logs, last } = await transferLogs(rpc, token, from, final, spans, `${network}:${token}`);
  const mine = logs.filter(
    (log) =>
      !log.removed &&
      log.address.toLowerCase() === token &&
      log.topics.length === 3 &&
      log.topics[0] === TRANSFER_TOPIC &&
      ours.has(`0x${log.topics[2]!.slice(-40).toLowerCase()}`),
  );
  // Oldest first: by block, then by position in the block.
  mine.sort(
    (a, b) =>
      Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) ||
      Number(BigInt(a.logIndex) - BigInt(b.logIndex)),
  );
  const times = new Map<string, Date>();
  const transfers: IncomingTransfer[] = [];
  for (const log of mine) {
    transfers.push({
      network,
      currency: coin,
      txHash: log.transactionHash,
      logIndex: Number(BigInt(log.logIndex)),
      fromAddress: topicAddress(log.topics[1]!),
      toAddress: topicAddress(log.topics[2]!),
      amountMinor: fromChainUnits(network, coin, BigInt(log.data === '0x' ? 0 : log.data)).amountMinor,
      confirmedAt: await blockTime(rpc, log, times),
    });
  }
  return { token, transfers, nextBlock: last + 1n };
}

/** One window per configured token contract; `commit` moves each token's cursor past its window. */
export async function scanDeposits(
  db: Database,
  config: EvmConfig,
  rpcOf: (network: string) => JsonRpc,
  addresses: readonly WatchedAddress[],
  spans: LogSpans = new Map(),
): Promise<IncomingScan> {
  const scans: [Network, TokenScan][] = [];
  for (const [network, settings] of Object.entries(config.networks) as [Network, EvmNetworkConfig][]) {
    const ours = new Set(
      addresses.flatMap((watched) => {
        if (watched.network !== network) return [];
        const check = validateAddress(network, watched.address);
        return check.ok ? [check.address.toLowerCase()] : [];
      }),
    );
    if (ours.size === 0) continue;
    const rpc = rpcOf(network);
    const final = (await rpc.blockNumber()) - BigInt(settings.confirmations) + 1n;
    if (final < 0n) continue;
    for (const [coin, contract] of Object.entries(settings.tokens) as [Stablecoin, string][]) {
      const scan = await scanToken(db, network, rpc, coin, contract.toLowerCase(), final, ours, spans);
      if (scan) scans.push([network, scan]);
    }
  }
  return {
    transfers: scans.flatMap(([, scan]) => scan.transfers),
    commit: async () => {
      for (const [network, scan] of scans) await advanceLogCursor(db, network, scan.token, scan.nextBlock);
    },
  };
}
