/** Shared set-up of the parties tests: a workspace, its clients, and customers made through the API. */
import type { TestContext } from '../support/app.ts';
import { client, createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

export type Client = ReturnType<typeof client>;

/** Valid documents (check digits right), numeric and alphanumeric. */
export const CPF = '52998224725';
export const CPF_MASKED = '529.982.247-25';
export const CNPJ = '11222333000181';
export const ALPHANUMERIC_CNPJ = '12ABC34501DE35';

export interface PartiesWorkspace {
  owner: Owner;
  apiKey: string;
  session: Client;
  api: Client;
  /** A customer created through the API; returns its view. */
  customer(body?: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }>;
  /** A party-scoped key for `partyId`, and its client. */
  partyClient(partyId: string, env?: 'sandbox' | 'live'): Promise<Client>;
}

export async function partiesWorkspace(
  ctx: TestContext,
  name = 'Acme Pagamentos',
): Promise<PartiesWorkspace> {
  const owner = await signupOwner(ctx.app, name);
  const apiKey = (await createApiKey(ctx.app, owner)).secret;
  const session = client(ctx.app, owner.sessionToken, owner.workspaceId);
  const api = client(ctx.app, apiKey, owner.workspaceId);
  let count = 0;
  return {
    owner,
    apiKey,
    session,
    api,
    async customer(body = {}) {
      const res = await api.post('/v1/sandbox/customers', { display_name: `Customer ${++count}`, ...body });
      if (res.statusCode !== 200) throw new Error(`customer: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async partyClient(partyId, env = 'sandbox') {
      const key = await createApiKey(ctx.app, owner, env, { party_id: partyId });
      return client(ctx.app, key.secret, owner.workspaceId);
    },
  };
}

/** Type and object id of every event of the workspace, oldest first. */
export function eventTypesOf(ctx: TestContext, workspaceId: string) {
  return ctx.db
    .query<{ type: string; object_id: string }>(
      `SELECT type, payload->'data'->'object'->>'id' AS object_id FROM events WHERE workspace_id = $1 ORDER BY id`,
      [workspaceId],
    )
    .then((r) => r.rows);
}
