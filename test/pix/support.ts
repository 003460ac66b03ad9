/** The PIX tests' names for the test world (test/support/world.ts). */
import type { TestContext } from '../support/app.ts';
import type { CallResult, ServerHarness } from '../support/server-process.ts';
import { openWorkspace, SETTLEMENT_KEY, type Workspace } from '../support/world.ts';

export { CNPJ, CPF, drainJobs, type Env, EVP, SETTLEMENT_KEY } from '../support/world.ts';

/** A workspace with its clients and what a user can observe of it. */
export type PixWorkspace = Workspace;

export const pixWorkspace = (ctx: TestContext, name = 'Acme Pagamentos'): Promise<PixWorkspace> =>
  openWorkspace(ctx, name);

/** A workspace with a settlement key and R$ 100.00, and one sandbox payout of `amountMinor` just acknowledged. */
export async function workspaceWithPayout(ctx: TestContext, amountMinor = '2000') {
  const ws = await openWorkspace(ctx, 'Acme Pagamentos', { settlementKey: true, fund: '10000' });
  return { ws, payout: await ws.payout(amountMinor, { pix_key: '52998224725' }) };
}

/** On a running server (the crash tests): an owner, a sandbox key, `fund` credited and a settlement key. */
export async function httpMerchant(server: ServerHarness, name: string, fund: string) {
  const ok = (res: CallResult, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res;
  };
  const signup = ok(
    await server.call('POST', '/v1/auth/signup', null, null, {
      email: `${name.toLowerCase().replace(/\W+/g, '-')}-${process.pid}@example.com`,
      password: 'correct horse battery staple',
      workspace_name: `${name} Ltda`,
    }),
    'signup',
  );
  const session: string = signup.body.data.session_token;
  const workspaceId: string = signup.body.data.workspace.id;
  const key = ok(await server.call('POST', '/v1/sandbox/api-keys', session, workspaceId, { name }), 'key');
  const apiKey: string = key.body.data.secret;
  const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
    server.call(method, url, apiKey, workspaceId, body, headers);
  ok(await api('POST', '/v1/sandbox/simulate/pix/cash-in', { amount_minor: fund }), 'cash-in');
  ok(await server.call('PUT', '/v1/sandbox/settlement-key', session, workspaceId, SETTLEMENT_KEY), 'key');
  return { session, workspaceId, apiKey, api };
}
