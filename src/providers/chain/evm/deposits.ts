/**
 * Deposits on EVM networks: ERC-20 Transfer logs of the configured token contracts into our
 * addresses, read from a stored block cursor per network and only from blocks already
 * `confirmations` deep, so a reorganisation shallower than that never reaches what is read.
 */
import type { Database } from '../../../db/types.ts';
import { validateAddress } from '../addresses.ts';
import { fromChainUnits, type Network, type Stablecoin } from '../networks.ts';
import type { IncomingScan, IncomingTransfer, WatchedAddress } from '../provider.ts';
import type { EvmConfig, EvmNetworkConfig } from './config.ts';
import { addressTopic, TRANSFER_TOPIC, topicAddress } from './erc20.ts';
import { hex, type JsonRpc, type RpcLog } from './rpc.ts';
import { advanceLogCursor, logCursor } from './store.ts';

/** Blocks read per eth_getLogs (nodes commonly cap the range); the next round reads on. */
export const LOG_RANGE = 1000n;
/** Where a network's first scan starts: this many final blocks back from its head. */
export const FIRST_SCAN_BACKLOG = 10_000n;
/** Addresses per eth_getLogs topic filter. */
const ADDRESSES_PER_CALL = 200;

interface NetworkScan {
  transfers: IncomingTransfer[];
  nextBlock: bigint;
}

async function scanNetwork(
  db: Database,
  network: Network,
  settings: EvmNetworkConfig,
  rpc: JsonRpc,
  ours: string[],
): Promise<NetworkScan | undefined> {
  const final = (await rpc.blockNumber()) - BigInt(settings.confirmations) + 1n;
  if (final < 0n) return undefined;
  const from =
    (await logCursor(db, network)) ?? (final >= FIRST_SCAN_BACKLOG ? final - FIRST_SCAN_BACKLOG + 1n : 0n);
  if (from > final) return undefined;
  const to = final < from + LOG_RANGE - 1n ? final : from + LOG_RANGE - 1n;
  const coinOf = new Map(
    Object.entries(settings.tokens).map(([coin, address]) => [address.toLowerCase(), coin as Stablecoin]),
  );
  const logs: RpcLog[] = [];
  for (let i = 0; i < ours.length; i += ADDRESSES_PER_CALL) {
    const filter = {
      fromBlock: hex(from),
      toBlock: hex(to),
      address: [...coinOf.keys()],
      topics: [TRANSFER_TOPIC, null, ours.slice(i, i + ADDRESSES_PER_CALL).map(addressTopic)],
    };
    logs.push(...(await rpc.call<RpcLog[]>('eth_getLogs', [filter])));
  }
  // Oldest first: by block, then by position in the block.
  logs.sort(
    (a, b) =>
      Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) ||
      Number(BigInt(a.logIndex) - BigInt(b.logIndex)),
  );
  const timestamps = new Map<string, Date>();
  const transfers: IncomingTransfer[] = [];
  for (const log of logs) {
    const currency = coinOf.get(log.address.toLowerCase());
    if (log.removed || !currency || log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) continue;
    if (!timestamps.has(log.blockNumber)) {
      const block = await rpc.getBlock(BigInt(log.blockNumber));
      timestamps.set(log.blockNumber, new Date(Number(BigInt(block!.timestamp)) * 1000));
    }
    const units = BigInt(log.data === '0x' ? 0 : log.data);
    transfers.push({
      network,
      currency,
      txHash: log.transactionHash,
      logIndex: Number(BigInt(log.logIndex)),
      fromAddress: topicAddress(log.topics[1]!),
      toAddress: topicAddress(log.topics[2]!),
      amountMinor: fromChainUnits(network, currency, units).amountMinor,
      confirmedAt: timestamps.get(log.blockNumber)!,
    });
  }
  return { transfers, nextBlock: to + 1n };
}

/** One window per configured network; `commit` moves each network's cursor past its window. */
export async function scanDeposits(
  db: Database,
  config: EvmConfig,
  rpcOf: (network: string) => JsonRpc,
  addresses: readonly WatchedAddress[],
): Promise<IncomingScan> {
  const scans: [Network, NetworkScan][] = [];
  for (const [network, settings] of Object.entries(config.networks) as [Network, EvmNetworkConfig][]) {
    const ours = addresses.flatMap((watched) => {
      if (watched.network !== network) return [];
      const check = validateAddress(network, watched.address);
      return check.ok ? [check.address] : [];
    });
    if (ours.length === 0) continue;
    const scan = await scanNetwork(db, network, settings, rpcOf(network), ours);
    if (scan) scans.push([network, scan]);
  }
  return {
    transfers: scans.flatMap(([, scan]) => scan.transfers),
    commit: async () => {
      for (const [network, scan] of scans) await advanceLogCursor(db, network, scan.nextBlock);
    },
  };
}
