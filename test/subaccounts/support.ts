import type { TestContext } from '../support/app.ts';
import { client, createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

export type Client = ReturnType<typeof client>;

export interface Parent {
  owner: Owner;
  api: Client;
  session: Client;
  /** Creates a sub-account through the API; returns its view. */
  subaccount(
    body?: Record<string, unknown>,
  ): Promise<{ id: string; party_id: string; [key: string]: unknown }>;
  /** The owner's session on the child workspace (X-Workspace-Id of the child). */
  sessionOn(childId: string): Client;
}

export async function parentWorkspace(ctx: TestContext, name = 'Platform Ltda'): Promise<Parent> {
  const owner = await signupOwner(ctx.app, name);
  const api = client(ctx.app, (await createApiKey(ctx.app, owner)).secret, owner.workspaceId);
  let count = 0;
  return {
    owner,
    api,
    session: client(ctx.app, owner.sessionToken, owner.workspaceId),
    async subaccount(body = {}) {
      const res = await api.post('/v1/sandbox/subaccounts', { display_name: `Seller ${++count}`, ...body });
      if (res.statusCode !== 200) throw new Error(`subaccount: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    sessionOn: (childId) => client(ctx.app, owner.sessionToken, childId),
  };
}
