import type { Config } from '../config.ts';
import type { Database } from '../db/types.ts';
import type { Clock, Environment } from '../platform/environment.ts';
import { AppError } from '../platform/errors.ts';
import type { PixProvider, SandboxPixControls } from './pix/provider.ts';
import { SandboxPixProvider } from './pix/sandbox.ts';

/** What each rail's provider is; a new rail adds its interface here. */
export interface RailProviders {
  pix: PixProvider;
}
export type Rail = keyof RailProviders;

/** Controls only the sandbox providers have: the sandbox helpers act as the PSP or chain through them. */
export interface SandboxControls {
  pix: SandboxPixControls;
}

/**
 * The provider of a rail in an environment. `get` answers 503 provider_unavailable itself when the
 * environment has none configured (live, until a real adapter is set up), so callers never check.
 */
export interface ProviderRegistry {
  get<R extends Rail>(rail: R, environment: Environment): RailProviders[R];
  has(rail: Rail, environment: Environment): boolean;
  readonly sandbox: SandboxControls;
}

type Table = { [R in Rail]: Partial<Record<Environment, RailProviders[R]>> };

export function createProviderRegistry(config: Config, db: Database, clock: Clock): ProviderRegistry {
  const sandboxPix = new SandboxPixProvider(db, clock, config.sandboxSettleMs);
  return registryOf({ pix: { sandbox: sandboxPix } }, { pix: sandboxPix });
}

/** A registry over a table of providers; tests swap one provider this way. */
export function registryOf(table: Table, sandbox: SandboxControls): ProviderRegistry {
  return {
    sandbox,
    has: (rail, environment) => table[rail][environment] !== undefined,
    get<R extends Rail>(rail: R, environment: Environment): RailProviders[R] {
      const provider = (table[rail] as Partial<Record<Environment, RailProviders[R]>>)[environment];
      if (!provider) {
        throw new AppError(
          'provider_unavailable',
          `No ${rail.toUpperCase()} provider is configured for ${environment}.`,
        );
      }
      return provider;
    },
  };
}
