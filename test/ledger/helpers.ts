/** The ledger tests' names for the test world (test/support/world.ts). */
import type { Database } from '../../src/db/types.ts';
import type { App } from '../../src/platform/schema.ts';
import { type Client, client, createApiKey, signupOwner } from '../support/world.ts';

export { addParty, cashIn, seedWorkspace } from '../support/world.ts';

export type Api = Client;

/** An owner, a sandbox key and a client on it (world.workspace() gives the same and more). */
export async function sandboxMerchant(app: App, name?: string) {
  const owner = await signupOwner(app, name);
  const key = await createApiKey(app, owner);
  return { owner, key, api: client(app, key.secret, owner.workspaceId) };
}

/** Waits (bounded) until some other backend of this database waits on a lock. */
export async function someoneWaitsOnALock(db: Database): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('nobody waited on a lock');
}
