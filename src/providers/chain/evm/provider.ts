/**
 * The live chain on EVM networks: ERC-20 transfers signed by the key manager and broadcast over
 * JSON-RPC, final after the network's confirmations; deposits read from Transfer logs. Every send is
 * keyed by the payment id (evm_transfers), so it is one transaction however often it is asked for.
 */
import type { Database } from '../../../db/types.ts';
import type { Clock } from '../../../platform/environment.ts';
import { AppError } from '../../../platform/errors.ts';
import type { KeyManager } from '../../kms/provider.ts';
import { validateAddress } from '../addresses.ts';
import { type Network, type Stablecoin, toChainUnits } from '../networks.ts';
import type {
  ChainProvider,
  ChainTransfer,
  ChainTransferInput,
  IncomingScan,
  IncomingTransfer,
  WatchedAddress,
} from '../provider.ts';
import { CHAIN_IDS, type EvmConfig, type EvmNetwork, type EvmNetworkConfig } from './config.ts';
import { type LogSpans, scanDeposits } from './deposits.ts';
import { transferCalldata } from './erc20.ts';
import { JsonRpc, RpcError } from './rpc.ts';
import { signTransfer } from './sign.ts';
import {
  type EvmTransferRow,
  findTransfer,
  finish,
  insertRefused,
  markBroadcast,
  markSeen,
  planTransfer,
  releaseNonce,
  setSigned,
} from './store.ts';

/** Why a live EVM send fails (the payment's failure_reason; docs/crypto.md). */
export const EVM_FAILURES = {
  insufficientGas: 'insufficient_gas',
  rejected: 'transfer_rejected',
  broadcastRejected: 'broadcast_rejected',
  reverted: 'transaction_reverted',
  replaced: 'transaction_replaced',
  unsupported: 'unsupported_network',
} as const;

/** Node answers to a rebroadcast that mean the transaction is, or was, in: nothing to undo. */
const ALREADY_IN = /already known|known transaction|already imported|nonce too low|nonce.*(used|already)/i;
/** Gas margin over eth_estimateGas: a transfer's cost can move between estimate and inclusion. */
const GAS_MARGIN_PERCENT = 120n;

export class EvmChainProvider implements ChainProvider {
  readonly name = 'evm';
  private readonly rpcs = new Map<string, JsonRpc>();
  private readonly chainIds = new Map<string, bigint>();
  private readonly logSpans: LogSpans = new Map();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly keys: KeyManager,
    private readonly config: EvmConfig,
  ) {
    for (const [network, settings] of Object.entries(config.networks)) {
      this.rpcs.set(network, new JsonRpc(settings.rpcUrl, config.rpcTimeoutMs));
    }
  }

  supports(network: Network, currency: Stablecoin): boolean {
    return this.settings(network)?.tokens[currency] !== undefined;
  }

  async sendTransfer(input: ChainTransferInput): Promise<ChainTransfer> {
    const existing = await findTransfer(this.db, input.paymentId);
    if (existing) return this.advance(existing);
    const settings = this.settings(input.network);
    const token = settings?.tokens[input.currency];
    const from = validateAddress(input.network, input.fromAddress);
    const to = validateAddress(input.network, input.toAddress);
    if (!from.ok || !to.ok) throw new RangeError('a live EVM send needs two EVM addresses');
    const refused = {
      paymentId: input.paymentId,
      network: input.network,
      token: token ?? '',
      from: from.address,
      to: to.address,
      amount: input.amountMinor,
    };
    if (!settings || !token) return this.refuse(refused, EVM_FAILURES.unsupported);
    if (!input.keyRef) throw new Error(`send ${input.paymentId} has no signing key`);
    const rpc = this.rpc(input.network);
    const chainId = await this.chainId(input.network);
    const amount = toChainUnits(input.network, input.currency, input.amountMinor);
    let estimate: bigint;
    try {
      estimate = BigInt(
        await rpc.call<string>('eth_estimateGas', [
          { from: from.address, to: token, data: transferCalldata(to.address, amount) },
        ]),
      );
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      // The node ran the transfer and it reverts (the token balance is short) or cannot pay for gas.
      const reason = /insufficient funds/i.test(error.message)
        ? EVM_FAILURES.insufficientGas
        : EVM_FAILURES.rejected;
      return this.refuse({ ...refused, amount }, reason);
    }
    const gas = (estimate * GAS_MARGIN_PERCENT) / 100n;
    const fees = await this.fees(rpc);
    if ((await rpc.balance(from.address)) < gas * fees.maxFeePerGas) {
      return this.refuse({ ...refused, amount }, EVM_FAILURES.insufficientGas);
    }
    const pending = await rpc.nonceAt(from.address, 'pending');
    await planTransfer(
      this.db,
      {
        paymentId: input.paymentId,
        network: input.network,
        token,
        from: from.address,
        to: to.address,
        amount,
        keyRef: input.keyRef,
        chainId,
        gas,
        ...fees,
      },
      pending,
    );
    return this.advance((await findTransfer(this.db, input.paymentId))!);
  }

  async getStatus(paymentId: string): Promise<ChainTransfer> {
    const row = await findTransfer(this.db, paymentId);
    return row ? this.advance(row) : { status: 'unknown' };
  }

  async scanIncoming(addresses: readonly WatchedAddress[]): Promise<IncomingScan> {
    for (const network of Object.keys(this.config.networks)) await this.chainId(network);
    return scanDeposits(this.db, this.config, (network) => this.rpc(network), addresses, this.logSpans);
  }

  /** The final transfers past the cursor; the cursor stays (scanIncoming's commit moves it). */
  async listIncoming(addresses: readonly WatchedAddress[]): Promise<IncomingTransfer[]> {
    return (await this.scanIncoming(addresses)).transfers;
  }

  private settings(network: Network): EvmNetworkConfig | undefined {
    return this.config.networks[network as EvmNetwork];
  }

  private rpc(network: string): JsonRpc {
    const rpc = this.rpcs.get(network);
    if (!rpc) throw new Error(`${network} is not configured`);
    return rpc;
  }

  private async chainId(network: string): Promise<bigint> {
    let id = this.chainIds.get(network);
    if (id === undefined) {
      id = BigInt(await this.rpc(network).call<string>('eth_chainId'));
      const expected = CHAIN_IDS[network as EvmNetwork];
      if (id !== expected) {
        throw new AppError('provider_unavailable', `The ${network} node is of chain ${id}, not ${expected}.`);
      }
      this.chainIds.set(network, id);
    }
    return id;
  }

  /** EIP-1559 fees: the next block's base fee (eth_feeHistory) doubled, plus the node's suggested tip. */
  private async fees(rpc: JsonRpc): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    const history = await rpc.call<{ baseFeePerGas: string[]; reward?: string[][] }>('eth_feeHistory', [
      '0x5',
      'latest',
      [50],
    ]);
    const nextBase = BigInt(history.baseFeePerGas.at(-1) ?? '0x0');
    let tip: bigint;
    try {
      tip = BigInt(await rpc.call<string>('eth_maxPriorityFeePerGas'));
    } catch {
      const rewards = (history.reward ?? [])
        .map((r) => BigInt(r[0] ?? '0x0'))
        .sort((a, b) => (a < b ? -1 : 1));
      tip = rewards[Math.floor(rewards.length / 2)] ?? 0n;
    }
    return { maxFeePerGas: nextBase * 2n + tip, maxPriorityFeePerGas: tip };
  }

  private async refuse(input: Parameters<typeof insertRefused>[1], reason: string): Promise<ChainTransfer> {
    await insertRefused(this.db, input, reason);
    return this.advance((await findTransfer(this.db, input.paymentId))!);
  }

  /** Moves a transfer on by one look at the chain and says where it stands. */
  private async advance(row: EvmTransferRow): Promise<ChainTransfer> {
    if (row.status === 'signed') return this.broadcast(row);
    if (row.status === 'broadcast') return this.check(row);
    return outcomeOf(row);
  }

  /** First broadcast, also after a crash between signing and broadcasting (the same bytes again). */
  private async broadcast(row: EvmTransferRow): Promise<ChainTransfer> {
    let signed = row;
    if (row.raw_tx === null) {
      const { raw, hash } = await signTransfer(this.keys, row);
      await setSigned(this.db, row.payment_id, raw, hash);
      signed = { ...row, raw_tx: raw, tx_hash: hash };
    }
    try {
      await this.rpc(row.network).sendRaw(signed.raw_tx!);
    } catch (error) {
      // Not an answer from the node (timeout, connection): it may or may not have it; ask again later.
      if (!(error instanceof RpcError)) throw error;
      if (!ALREADY_IN.test(error.message) && row.broadcasts === 0 && !(await this.mayBeIn(signed))) {
        const reason = /insufficient funds/i.test(error.message)
          ? EVM_FAILURES.insufficientGas
          : EVM_FAILURES.broadcastRejected;
        await finish(this.db, row.payment_id, 'failed', reason);
        await releaseNonce(this.db, row);
        return outcomeOf((await findTransfer(this.db, row.payment_id))!);
      }
    }
    await markBroadcast(this.db, row.payment_id, this.clock.now());
    return outcomeOf((await findTransfer(this.db, row.payment_id))!);
  }

  /**
   * Whether an earlier send whose answer was lost may have reached the chain: the node knows the
   * transaction, or the nonce is taken. Then only check() may fail it, once that nonce is final.
   */
  private async mayBeIn(row: EvmTransferRow): Promise<boolean> {
    const rpc = this.rpc(row.network);
    if (await rpc.transaction(row.tx_hash!)) return true;
    return (await rpc.nonceAt(row.from_address, 'pending')) > BigInt(row.nonce!);
  }

  /**
   * A broadcast transfer: final once its receipt is `confirmations` blocks deep (status 1 completed,
   * 0 reverted). Unknown to the node: failed when its nonce was used by another transaction in a final
   * block (it can never be mined now), else broadcast again once it has been gone the drop timeout.
   */
  private async check(row: EvmTransferRow): Promise<ChainTransfer> {
    const rpc = this.rpc(row.network);
    const confirmations = BigInt(this.settings(row.network as Network)!.confirmations);
    const now = this.clock.now();
    const receipt = await rpc.receipt(row.tx_hash!);
    if (receipt) {
      await markSeen(this.db, row.payment_id, now);
      const depth = (await rpc.blockNumber()) - BigInt(receipt.blockNumber) + 1n;
      if (depth < confirmations) return outcomeOf(row);
      if (BigInt(receipt.status) === 1n) await finish(this.db, row.payment_id, 'completed');
      else await finish(this.db, row.payment_id, 'failed', EVM_FAILURES.reverted);
      return outcomeOf((await findTransfer(this.db, row.payment_id))!);
    }
    if (await rpc.transaction(row.tx_hash!)) {
      await markSeen(this.db, row.payment_id, now);
      return outcomeOf(row);
    }
    const final = (await rpc.blockNumber()) - confirmations + 1n;
    if (final >= 0n && (await rpc.nonceAt(row.from_address, final)) > BigInt(row.nonce!)) {
      await finish(this.db, row.payment_id, 'failed', EVM_FAILURES.replaced);
      return outcomeOf((await findTransfer(this.db, row.payment_id))!);
    }
    const gone = now.getTime() - (row.seen_at?.getTime() ?? 0);
    if (gone >= this.config.dropTimeoutMs) {
      try {
        await rpc.sendRaw(row.raw_tx!);
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
      }
      await markBroadcast(this.db, row.payment_id, now);
    }
    return outcomeOf(row);
  }
}

function outcomeOf(row: EvmTransferRow): ChainTransfer {
  const hash = row.tx_hash && row.broadcasts > 0 ? { txHash: row.tx_hash } : {};
  if (row.status === 'completed') return { status: 'completed', ...hash };
  if (row.status === 'failed') {
    return { status: 'failed', ...hash, failureReason: row.failure_reason ?? EVM_FAILURES.rejected };
  }
  return { status: 'processing', ...hash };
}
