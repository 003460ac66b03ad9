import type { Config } from '../config.ts';
import type { Database } from '../db/types.ts';
import type { Clock, Environment } from '../platform/context.ts';
import type { PixProvider } from './pix/provider.ts';
import { SandboxPixProvider } from './pix/sandbox.ts';

/** The rails' providers per environment. Live has none until a real PSP adapter is configured. */
export interface Providers {
  pix(environment: Environment): PixProvider | undefined;
  readonly sandboxPix: SandboxPixProvider;
}

export function createProviders(config: Config, db: Database, clock: Clock): Providers {
  const sandboxPix = new SandboxPixProvider(db, clock, config.sandboxSettleMs);
  return {
    sandboxPix,
    pix: (environment) => (environment === 'sandbox' ? sandboxPix : undefined),
  };
}
