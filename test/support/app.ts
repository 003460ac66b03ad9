import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/types.ts';
import { closeDeps, createDeps } from '../../src/deps.ts';
import type { Clock, Deps } from '../../src/platform/context.ts';
import { CHECK_DECLARED_ERRORS_ENV } from '../../src/platform/http/declared-errors.ts';
import type { App } from '../../src/platform/schema.ts';
import { createTestDatabase } from './database.ts';

// Every test app records the error codes its routes answer outside their declared lists.
process.env[CHECK_DECLARED_ERRORS_ENV] = '1';

/** A clock tests can move: time-dependent rules (sessions, expiry, retries) are checked without sleeping. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestContext {
  app: App;
  db: Database;
  deps: Deps;
  clock: TestClock;
  close(): Promise<void>;
}

export async function startTestApp(
  overrides: Partial<Config> = {},
  beforeReady?: (app: App) => void,
): Promise<TestContext> {
  return startTestAppOn(await createTestDatabase(), overrides, beforeReady);
}

/** The app on a database the test made itself; closing the context closes the database too. */
export async function startTestAppOn(
  db: Database,
  overrides: Partial<Config> = {},
  beforeReady?: (app: App) => void,
): Promise<TestContext> {
  const clock = new TestClock();
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000' }), ...overrides };
  const deps = createDeps(config, db, { masterKey: randomBytes(32).toString('hex'), clock });
  const app = await buildApp(deps, { logger: false });
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    db,
    deps,
    clock,
    close: async () => {
      const undeclared = [...app.undeclaredErrors];
      await app.close();
      await closeDeps(deps);
      await db.close();
      // A code a route answers must be in its documented list (src/platform/route-errors.ts).
      if (undeclared.length) throw new Error(`undeclared error codes:\n${undeclared.join('\n')}`);
    },
  };
}
