import type { Network } from '../../providers/chain/networks.ts';

/**
 * The network fee of a crypto send, per network, in minor units of the sent stablecoin (USDT and USDC
 * are both scale 6 and worth about a dollar, so one figure serves both). It covers the gas Lastro pays
 * to broadcast the transfer, with a margin for spikes; it is debited with the amount at once and goes
 * to fee revenue when the send completes (returned in full when it fails).
 *
 * These are the crypto module's own defaults: the PIX fee schedules (fee_schedules) are the PIX
 * module's and carry no network, so crypto does not read them. Per-workspace crypto fees would be a
 * table of this module, keyed by network.
 */
export const CRYPTO_NETWORK_FEES: Record<Network, bigint> = {
  ethereum: 2_500_000n, // 2.50: an ERC-20 transfer on mainnet
  polygon: 50_000n, // 0.05
  base: 50_000n,
  arbitrum: 100_000n, // 0.10
  optimism: 100_000n,
  bsc: 150_000n, // 0.15
  avalanche: 150_000n,
  tron: 1_500_000n, // 1.50: TRC-20 energy bought with TRX
  solana: 50_000n,
};

export const networkFee = (network: Network): bigint => CRYPTO_NETWORK_FEES[network];
