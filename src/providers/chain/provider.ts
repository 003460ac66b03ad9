import type { Network, Stablecoin } from './networks.ts';

/**
 * A chain (or the custodian broadcasting on it), one method per step of a send. Every send is keyed
 * by our payment id, which the provider treats as its idempotency key: sending twice never pays
 * twice. Amounts are ledger minor units (scale 6); the provider converts to the token's on-chain
 * decimals. Providers are only ever called outside a database transaction.
 */
export interface ChainProvider {
  readonly name: string;
  /**
   * Broadcasts a stablecoin transfer. `processing` carries the tx hash (broadcast, not yet final);
   * a send the chain refuses before broadcast comes back `failed` without one.
   */
  sendTransfer(input: ChainTransferInput): Promise<ChainTransfer>;
  /** Where a send stands now; 'unknown' when the provider never saw the payment id. */
  getStatus(paymentId: string): Promise<ChainTransfer>;
  /**
   * Final stablecoin transfers into `addresses`, confirmed at or after `since`, oldest first. The
   * same transfer may come again on a later call: callers dedupe on (network, txHash, logIndex).
   */
  listIncoming(addresses: readonly WatchedAddress[], since: Date): Promise<IncomingTransfer[]>;
  /** Whether this provider moves `currency` on `network`; absent means every network and stablecoin. */
  supports?(network: Network, currency: Stablecoin): boolean;
  /**
   * For a provider that keeps its own block cursor (live chains): the final transfers into
   * `addresses` past the cursor, and `commit`, which moves the cursor past them. The caller commits
   * only once every transfer is credited, so a crash in between reads them again (and dedupes).
   */
  scanIncoming?(addresses: readonly WatchedAddress[]): Promise<IncomingScan>;
}

export interface IncomingScan {
  transfers: IncomingTransfer[];
  commit(): Promise<void>;
}

export interface ChainTransferInput {
  paymentId: string;
  network: Network;
  currency: Stablecoin;
  fromAddress: string;
  toAddress: string;
  amountMinor: bigint;
  /** The key-manager reference of the sending wallet's key (its provider_ref), for providers that sign. */
  keyRef?: string;
}

export interface ChainTransfer {
  status: 'processing' | 'completed' | 'failed' | 'unknown';
  txHash?: string;
  failureReason?: string;
}

/** EVM networks share addresses, so a watched address names its network. */
export interface WatchedAddress {
  network: Network;
  address: string;
}

export interface IncomingTransfer {
  network: Network;
  currency: Stablecoin;
  txHash: string;
  /** Position of the transfer within its transaction (EVM log index, instruction index on Solana). */
  logIndex: number;
  fromAddress: string;
  toAddress: string;
  /** Ledger minor units, rounded down from the on-chain amount. */
  amountMinor: bigint;
  confirmedAt: Date;
}
