/** The ledger tests' names for the test world (test/support/world.ts). */
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
