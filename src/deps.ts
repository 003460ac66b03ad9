import { Redis } from 'ioredis';
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
  return {
    config,
    db,
    clock,
    sealer,
    providers: createProviderRegistry(config, db, clock, sealer),
    ...(config.redisUrl ? { redis: sharedRedis(config.redisUrl) } : {}),
  };
}

/**
 * Lazy: a process that never counts (the worker, an operator command) opens no connection. A Redis
 * that cannot be reached fails a command after one retry, so a limit skips it rather than hang.
 */
function sharedRedis(url: string): Redis {
  return new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: true });
}

/** Lets go of what createDeps opened; the database stays its opener's to close. */
export async function closeDeps(deps: Deps): Promise<void> {
  // A client that never connected has nothing to flush (quit would connect first).
  if (deps.redis?.status === 'wait') deps.redis.disconnect();
  else await deps.redis?.quit();
}
