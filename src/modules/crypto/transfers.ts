/** Crypto sends on the outbound flow: how they reach the chain and where their money leaves the books. */
import { type OutboundRail, outboundFlow, type TransferOutcome } from '../../flows/outbound/index.ts';
import { systemAccount } from '../../ledger/accounts.ts';
import type { Currency } from '../../ledger/currency.ts';
import type { Network, Stablecoin } from '../../providers/chain/networks.ts';
import type { ChainTransfer } from '../../providers/chain/provider.ts';
import type { PaymentRow } from '../payments/service.ts';
import { findCustodialWallet } from '../wallets/service.ts';

/** The chain's answer in the flow's terms: the tx hash is set once broadcast (processing) and kept. */
function outcomeOf(result: ChainTransfer): TransferOutcome {
  const hash = result.txHash ? { tx_hash: result.txHash } : {};
  return {
    status: result.status,
    providerRef: result.txHash,
    processing: hash,
    completed: hash,
    failureReason: result.failureReason,
  };
}

export const cryptoRail: OutboundRail = {
  provider: 'chain',
  jobPrefix: 'crypto',
  paymentKinds: ['crypto_send'],
  send: async (deps, row) => {
    const network = row.network as Network;
    // The wallet's key reference, for a chain provider that signs (the key manager keeps the key).
    const wallet = await findCustodialWallet(deps.db, row.environment, network, row.from_address!);
    return outcomeOf(
      await deps.providers.get('chain', row.environment).sendTransfer({
        paymentId: row.id,
        network,
        currency: row.currency as Stablecoin,
        fromAddress: row.from_address!,
        toAddress: row.to_address!,
        amountMinor: row.amount_minor,
        ...(wallet?.provider_ref ? { keyRef: wallet.provider_ref } : {}),
      }),
    );
  },
  status: async (deps, row) =>
    outcomeOf(await deps.providers.get('chain', row.environment).getStatus(row.id)),
  /** Coins leave the workspace's custody on the send's network. */
  settlementAccount: (row: PaymentRow) =>
    systemAccount.cryptoCustody(row.workspace_id, row.environment, row.network!, row.currency as Currency),
  pollDelayMs: (deps, environment) =>
    environment === 'sandbox' ? Math.max(50, deps.config.sandboxSettleMs) : deps.config.evm.pollIntervalMs,
  // A workspace's sends leave in the order they were claimed, so one wallet's nonces reach the node in order.
  serialKey: (job) => `${job.workspaceId}:${job.environment}`,
};

/** Crypto sends: held, broadcast, polled, settled and reconciled by the one outbound flow. */
export const cryptoTransfers = outboundFlow(cryptoRail);
