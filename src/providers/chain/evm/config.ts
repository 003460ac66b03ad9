import { ConfigError, wholeSetting } from '../../../config-error.ts';
import { validateAddress } from '../addresses.ts';
import { EVM_NETWORKS, STABLECOINS, type Stablecoin } from '../networks.ts';

export type EvmNetwork = (typeof EVM_NETWORKS)[number];

/** One EVM network the live chain provider sends and watches on. */
export interface EvmNetworkConfig {
  rpcUrl: string;
  /** The token contracts carried here (EIP-55); a stablecoin without one is not sent or watched. */
  tokens: Partial<Record<Stablecoin, string>>;
  /** Blocks a transfer must be buried under (its own included) before it is final. */
  confirmations: number;
}

/** The live EVM settings, read by src/config.ts with the others (ConfigError names the setting). */
export interface EvmConfig {
  networks: Partial<Record<EvmNetwork, EvmNetworkConfig>>;
  /** How often an open send is asked about. */
  pollIntervalMs: number;
  /** A broadcast transaction the node no longer knows for this long is broadcast again. */
  dropTimeoutMs: number;
  rpcTimeoutMs: number;
}

/** Blocks to wait per network when EVM_CONFIRMATIONS_<NETWORK> is unset. */
export const DEFAULT_CONFIRMATIONS: Record<EvmNetwork, number> = {
  ethereum: 12,
  polygon: 64,
  base: 12,
  arbitrum: 12,
  optimism: 12,
  bsc: 15,
  avalanche: 3,
};

/** EIP-155 chain id of each network: a node answering another one is of another chain. */
export const CHAIN_IDS: Record<EvmNetwork, bigint> = {
  ethereum: 1n,
  polygon: 137n,
  base: 8453n,
  arbitrum: 42161n,
  optimism: 10n,
  bsc: 56n,
  avalanche: 43114n,
};

const suffix = (network: EvmNetwork) => network.toUpperCase();
export const rpcSetting = (network: EvmNetwork) => `EVM_RPC_URL_${suffix(network)}`;
export const tokenSetting = (network: EvmNetwork, coin: Stablecoin) =>
  `EVM_${coin}_CONTRACT_${suffix(network)}`;
export const confirmationsSetting = (network: EvmNetwork) => `EVM_CONFIRMATIONS_${suffix(network)}`;

type Env = Record<string, string | undefined>;

const whole = wholeSetting;

function contract(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new ConfigError(name, 'must be a 0x-prefixed 20-byte address');
  // Mixed case is an EIP-55 checksum: a mistyped contract fails it.
  if (!validateAddress('ethereum', raw).ok)
    throw new ConfigError(name, 'fails its EIP-55 checksum (a typo?)');
  return raw;
}

/**
 * A network is live when its RPC URL is set; then at least one token contract must be too. A token
 * contract or confirmation count without the RPC URL is a half-configured network: refused, naming
 * the setting that is missing.
 */
function loadNetwork(env: Env, network: EvmNetwork): EvmNetworkConfig | undefined {
  const raw = env[rpcSetting(network)];
  const tokens: Partial<Record<Stablecoin, string>> = {};
  for (const coin of STABLECOINS) {
    const address = contract(env, tokenSetting(network, coin));
    if (address) tokens[coin] = address;
  }
  const confirmations = whole(env, confirmationsSetting(network), DEFAULT_CONFIRMATIONS[network], 1, 10_000);
  const touched = Object.keys(tokens).length > 0 || Boolean(env[confirmationsSetting(network)]);
  if (raw === undefined || raw === '') {
    if (touched) throw new ConfigError(rpcSetting(network), `is missing: ${network} has token settings`);
    return undefined;
  }
  if (!/^https?:\/\/[^\s]+$/.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError(rpcSetting(network), 'must be an http:// or https:// URL');
  }
  // fetch refuses URLs with user:password@; providers take their key in the path instead.
  if (new URL(raw).username || new URL(raw).password) {
    throw new ConfigError(rpcSetting(network), 'must not carry user:password@ (put an API key in the path)');
  }
  if (Object.keys(tokens).length === 0) {
    throw new ConfigError(
      tokenSetting(network, 'USDT'),
      `is missing: set it or ${tokenSetting(network, 'USDC')}`,
    );
  }
  return { rpcUrl: raw, tokens, confirmations };
}

export function loadEvmConfig(env: Env = process.env): EvmConfig {
  const networks: EvmConfig['networks'] = {};
  for (const network of EVM_NETWORKS) {
    const loaded = loadNetwork(env, network);
    if (loaded) networks[network] = loaded;
  }
  return {
    networks,
    pollIntervalMs: whole(env, 'EVM_POLL_INTERVAL_MS', 5000, 100, 600_000),
    dropTimeoutMs: whole(env, 'EVM_DROP_TIMEOUT_MS', 120_000, 0, 86_400_000),
    rpcTimeoutMs: whole(env, 'EVM_RPC_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

/** The EVM rows of the settings list (src/config.ts SETTINGS, mirrored by the README table). */
export const EVM_SETTINGS: { name: string; default: string; meaning: string }[] = [
  ...EVM_NETWORKS.flatMap((network) => [
    {
      name: rpcSetting(network),
      default: '(unset)',
      meaning: `JSON-RPC URL of the ${network} node; set, live sends and deposits run on ${network}`,
    },
    ...STABLECOINS.map((coin) => ({
      name: tokenSetting(network, coin),
      default: '(unset)',
      meaning: `${coin} token contract on ${network}`,
    })),
    {
      name: confirmationsSetting(network),
      default: String(DEFAULT_CONFIRMATIONS[network]),
      meaning: `blocks deep a transfer on ${network} must be to be final`,
    },
  ]),
  { name: 'EVM_POLL_INTERVAL_MS', default: '5000', meaning: 'how often an open EVM send is asked about' },
  {
    name: 'EVM_DROP_TIMEOUT_MS',
    default: '120000',
    meaning: 'a sent transaction unknown to the node this long is broadcast again',
  },
  { name: 'EVM_RPC_TIMEOUT_MS', default: '10000', meaning: 'timeout of one JSON-RPC call' },
];
