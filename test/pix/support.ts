/** The PIX tests' names for the test world (test/support/world.ts). */
import type { TestContext } from '../support/app.ts';
import { openWorkspace, type Workspace } from '../support/world.ts';

export { CNPJ, CPF, drainJobs, type Env, EVP, SETTLEMENT_KEY } from '../support/world.ts';

/** A workspace with its clients and what a user can observe of it. */
export type PixWorkspace = Workspace;

export const pixWorkspace = (ctx: TestContext, name = 'Acme Pagamentos'): Promise<PixWorkspace> =>
  openWorkspace(ctx, name);

/** A workspace with a settlement key and R$ 100.00, and one sandbox payout of `amountMinor` just acknowledged. */
export async function workspaceWithPayout(ctx: TestContext, amountMinor = '2000') {
  const ws = await openWorkspace(ctx, 'Acme Pagamentos', { settlementKey: true, fund: '10000' });
  return { ws, payout: await ws.payout(amountMinor, { pix_key: 'x' }) };
}
