import type { Database, Queryable } from '../../src/db/types.ts';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import { newId } from '../../src/platform/ids.ts';
import type { App } from '../../src/platform/schema.ts';
import { client, createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

/** A workspace with its default party and `extra` more parties, straight in the database. */
export async function seedWorkspace(db: Database, extra = 0) {
  const workspace = await db.transaction((tx) => insertWorkspace(tx, { displayName: 'Ledger test' }));
  const parties = [workspace.default_party_id];
  for (let i = 0; i < extra; i++) parties.push(await addParty(db, workspace.id));
  return { workspaceId: workspace.id, parties };
}

export async function addParty(q: Queryable, workspaceId: string, name = 'Customer'): Promise<string> {
  const id = newId();
  await q.query(`INSERT INTO parties (id, workspace_id, kind, display_name) VALUES ($1, $2, 'person', $3)`, [
    id,
    workspaceId,
    name,
  ]);
  return id;
}

/** An owner, a sandbox key and a client on it. */
export async function sandboxMerchant(app: App, name?: string) {
  const owner: Owner = await signupOwner(app, name);
  const key = await createApiKey(app, owner);
  return { owner, key, api: client(app, key.secret, owner.workspaceId) };
}

export type Api = ReturnType<typeof client>;

/** Credits a party through the sandbox helper; returns the payment. */
export async function cashIn(api: Api, amount: string, partyId?: string) {
  const res = await api.post('/v1/sandbox/simulate/pix/cash-in', {
    amount_minor: amount,
    ...(partyId ? { party_id: partyId } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`cash-in failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
