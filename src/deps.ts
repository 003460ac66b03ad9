import type { Config } from './config.ts';
import type { Database } from './db/types.ts';
import type { Deps } from './platform/context.ts';
import { type Clock, systemClock } from './platform/environment.ts';
import { Sealer } from './platform/secrets.ts';
import { createProviderRegistry } from './providers/registry.ts';

/** The one place dependencies are built: main, the tests and the bench all come through here. */
export function createDeps(
  config: Config,
  db: Database,
  options: { masterKey: string; clock?: Clock },
): Deps {
  const clock = options.clock ?? systemClock;
  const sealer = new Sealer(options.masterKey);
  return { config, db, clock, sealer, providers: createProviderRegistry(config, db, clock, sealer) };
}
