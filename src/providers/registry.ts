import type { Config } from '../config.ts';
import type { Database } from '../db/types.ts';
import type { Clock, Environment } from '../platform/environment.ts';
import { AppError } from '../platform/errors.ts';
import type { Sealer } from '../platform/secrets.ts';
import { EvmChainProvider } from './chain/evm/provider.ts';
import type { ChainProvider } from './chain/provider.ts';
import { SandboxChainProvider } from './chain/sandbox.ts';
import { instrumentProvider } from './instrument.ts';
import { LocalKeyManager } from './kms/local.ts';
import type { KeyManager } from './kms/provider.ts';
import { BcbPixProvider } from './pix/bcb/provider.ts';
import type { PixProvider, SandboxPixControls } from './pix/provider.ts';
import { SandboxPixProvider } from './pix/sandbox.ts';
import { createPriceProviders, type PriceProvider } from './prices/index.ts';

/** What each rail's provider is; a new rail adds its interface here. */
export interface RailProviders {
  pix: PixProvider;
  chain: ChainProvider;
  kms: KeyManager;
  prices: PriceProvider;
}
export type Rail = keyof RailProviders;

/** Controls only the sandbox providers have: the sandbox helpers act as the PSP or chain through them. */
export interface SandboxControls {
  pix: SandboxPixControls;
  chain: Pick<SandboxChainProvider, 'simulateDeposit' | 'forceOutcome'>;
}

/**
 * The provider of a rail in an environment. `get` answers 503 provider_unavailable itself when the
 * environment has none configured (live, until a real adapter is set up), so callers never check.
 */
export interface ProviderRegistry {
  get<R extends Rail>(rail: R, environment: Environment): RailProviders[R];
  has(rail: Rail, environment: Environment): boolean;
  /** Answers 503 provider_unavailable, as `get` does, when the environment has no provider for the rail. */
  require(rail: Rail, environment: Environment): void;
  /** A copy of this registry with one rail's provider of one environment replaced (tests use it). */
  replacing<R extends Rail>(rail: R, environment: Environment, provider: RailProviders[R]): ProviderRegistry;
  readonly sandbox: SandboxControls;
}

type Table = { [R in Rail]: Partial<Record<Environment, RailProviders[R]>> };

/**
 * Sandbox gets every rail's sandbox implementation. Live gets the real adapters that are configured:
 * keys are real on both (the local key manager), prices when a live source is set, the API Pix PSP
 * with PIX_PROVIDER=bcb, the EVM chain when an EVM network is configured (Tron and Solana stay
 * unsupported: their live sends answer 503); a rail with none answers 503 on live and moves nothing.
 */
export function createProviderRegistry(
  config: Config,
  db: Database,
  clock: Clock,
  sealer: Sealer,
): ProviderRegistry {
  const sandboxPix = new SandboxPixProvider(db, clock, config.sandboxSettleMs);
  const sandboxChain = new SandboxChainProvider(db, clock, config.sandboxSettleMs);
  const keys = new LocalKeyManager(db, sealer);
  const prices = createPriceProviders(config.prices, clock);
  const liveChain =
    Object.keys(config.evm.networks).length > 0
      ? new EvmChainProvider(db, clock, keys, config.evm)
      : undefined;
  return registryOf(
    {
      pix: {
        sandbox: sandboxPix,
        ...(config.pix.bcb ? { live: new BcbPixProvider(config.pix.bcb, clock) } : {}),
      },
      chain: { sandbox: sandboxChain, ...(liveChain ? { live: liveChain } : {}) },
      kms: { sandbox: keys, live: keys },
      prices: { sandbox: prices.sandbox, ...(prices.live ? { live: prices.live } : {}) },
    },
    { pix: sandboxPix, chain: sandboxChain },
  );
}

function registryOf(table: Table, sandbox: SandboxControls): ProviderRegistry {
  return {
    sandbox,
    replacing: (rail, environment, provider) =>
      registryOf({ ...table, [rail]: { ...table[rail], [environment]: provider } }, sandbox),
    has: (rail, environment) => table[rail][environment] !== undefined,
    require: (rail, environment) => {
      if (table[rail][environment] === undefined) throw unavailable(rail, environment);
    },
    get<R extends Rail>(rail: R, environment: Environment): RailProviders[R] {
      const provider = (table[rail] as Partial<Record<Environment, RailProviders[R]>>)[environment];
      if (!provider) throw unavailable(rail, environment);
      return instrumentProvider(rail, environment, provider);
    },
  };
}

const unavailable = (rail: Rail, environment: Environment) =>
  new AppError('provider_unavailable', `No ${rail.toUpperCase()} provider is configured for ${environment}.`);
