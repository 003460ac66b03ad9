/**
 * The chains Lastro sends stablecoins on, the family each belongs to (which decides its address
 * format and key type), and the tokens on each. The ledger keeps USDT and USDC at scale 6 on
 * every network; the token contracts do not always agree, so the on-chain decimals live here.
 */

export const EVM_NETWORKS = [
  'ethereum',
  'polygon',
  'base',
  'arbitrum',
  'optimism',
  'bsc',
  'avalanche',
] as const;
export const NETWORKS = [...EVM_NETWORKS, 'tron', 'solana'] as const;
export type Network = (typeof NETWORKS)[number];

export const CHAIN_FAMILIES = ['evm', 'tron', 'solana'] as const;
export type ChainFamily = (typeof CHAIN_FAMILIES)[number];

export const STABLECOINS = ['USDT', 'USDC'] as const;
export type Stablecoin = (typeof STABLECOINS)[number];

/** Scale of USDT and USDC amounts in the ledger and on the wire, whatever the chain. */
export const LEDGER_SCALE = 6;

export const isNetwork = (value: unknown): value is Network =>
  typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);

export const isChainFamily = (value: unknown): value is ChainFamily =>
  typeof value === 'string' && (CHAIN_FAMILIES as readonly string[]).includes(value);

export const isStablecoin = (value: unknown): value is Stablecoin =>
  typeof value === 'string' && (STABLECOINS as readonly string[]).includes(value);

export function networkFamily(network: Network): ChainFamily {
  return network === 'tron' || network === 'solana' ? network : 'evm';
}

/** Every network of a family: an EVM wallet is registered on all of these at once. */
export const networksOfFamily = (family: ChainFamily): readonly Network[] =>
  NETWORKS.filter((network) => networkFamily(network) === family);

/** How people name a family in messages. */
export const FAMILY_LABEL: Record<ChainFamily, string> = { evm: 'EVM', tron: 'Tron', solana: 'Solana' };

/**
 * Decimals of each token contract. Binance-Peg USDT and USDC on BSC use 18; the rest use 6.
 * USDC on Tron: Circle stopped issuing it in 2024, but the contract still exists and API.md lists
 * it, so it stays here; a live adapter may refuse it.
 */
const TOKEN_DECIMALS: Record<Network, Record<Stablecoin, number>> = {
  ethereum: { USDT: 6, USDC: 6 },
  polygon: { USDT: 6, USDC: 6 },
  base: { USDT: 6, USDC: 6 },
  arbitrum: { USDT: 6, USDC: 6 },
  optimism: { USDT: 6, USDC: 6 },
  bsc: { USDT: 18, USDC: 18 },
  avalanche: { USDT: 6, USDC: 6 },
  tron: { USDT: 6, USDC: 6 },
  solana: { USDT: 6, USDC: 6 },
};

/** The stablecoins a network carries. */
export const stablecoinsOn = (network: Network): readonly Stablecoin[] =>
  STABLECOINS.filter((coin) => TOKEN_DECIMALS[network][coin] !== undefined);

/** Decimals of a token on chain, or undefined when the network does not carry it. */
export function tokenDecimals(network: Network, currency: string): number | undefined {
  return isStablecoin(currency) ? TOKEN_DECIMALS[network][currency] : undefined;
}

function requireDecimals(network: Network, currency: string): number {
  const decimals = tokenDecimals(network, currency);
  if (decimals === undefined) throw new RangeError(`${currency} is not carried on ${network}`);
  return decimals;
}

/** Ledger minor units (scale 6) as the token's base units on chain: exact, decimals are never fewer. */
export function toChainUnits(network: Network, currency: string, amountMinor: bigint): bigint {
  return amountMinor * 10n ** BigInt(requireDecimals(network, currency) - LEDGER_SCALE);
}

/**
 * Base units on chain as ledger minor units, rounded down (what we credit rounds down); `dust` is
 * the part below the ledger's scale, which only 18-decimal tokens can carry.
 */
export function fromChainUnits(
  network: Network,
  currency: string,
  units: bigint,
): { amountMinor: bigint; dust: bigint } {
  const factor = 10n ** BigInt(requireDecimals(network, currency) - LEDGER_SCALE);
  return { amountMinor: units / factor, dust: units % factor };
}
