/** Shared set-up of the PIX tests: a workspace with its clients and what a user can observe of it. */
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { newId } from '../../src/platform/ids.ts';
import { runJobs } from '../../src/worker.ts';
import type { TestContext } from '../support/app.ts';
import { client, createApiKey, type Owner, signupOwner } from '../support/fixtures.ts';

export type Env = 'sandbox' | 'live';

/** A valid CPF and CNPJ (check digits right). */
export const CPF = '52998224725';
export const CNPJ = '11222333000181';
export const EVP = '123e4567-e89b-42d3-a456-426614174000';

export const SETTLEMENT_KEY = {
  pix_key: 'Tesouraria@Acme.com.br',
  holder_name: 'Acme Pagamentos Ltda',
  holder_document: CNPJ,
};

export interface PixWorkspace {
  owner: Owner;
  apiKey: string;
  session: ReturnType<typeof client>;
  api: ReturnType<typeof client>;
  /** The default party's BRL balances by kind, as GET /balances shows them. */
  balances(env?: Env): Promise<Record<string, string>>;
  /** Net fee revenue this workspace's journals brought (BRL minor units). */
  feeRevenue(env?: Env): Promise<bigint>;
  /** Net amount this workspace's journals moved through the PIX settlement account (credit positive). */
  settlementNet(env?: Env): Promise<bigint>;
  /** How many payments of a kind the workspace has. */
  paymentCount(kind?: string, env?: Env): Promise<number>;
  /** How many ledger journals the workspace has. */
  journalCount(): Promise<number>;
  setSettlementKey(env?: Env, body?: Record<string, unknown>): Promise<void>;
  cashIn(amountMinor: string): Promise<void>;
  /** Credits the default party directly in the ledger (live has no cash-in helper). */
  credit(env: Env, amount: bigint): Promise<void>;
  /** Types of the events written for one payment, oldest first. */
  eventTypes(paymentId: string): Promise<string[]>;
}

export async function pixWorkspace(ctx: TestContext, name = 'Acme Pagamentos'): Promise<PixWorkspace> {
  const owner = await signupOwner(ctx.app, name);
  const apiKey = (await createApiKey(ctx.app, owner)).secret;
  const session = client(ctx.app, owner.sessionToken, owner.workspaceId);
  const api = client(ctx.app, apiKey, owner.workspaceId);
  const sumOf = async (env: Env, kind: string) => {
    const { rows } = await ctx.db.query<{ net: string | null }>(
      `SELECT sum(CASE WHEN p.direction = 'credit' THEN p.amount ELSE -p.amount END)::text AS net
         FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
        WHERE j.workspace_id = $1 AND j.environment = $2 AND p.kind = $3`,
      [owner.workspaceId, env, kind],
    );
    return BigInt(rows[0]?.net ?? '0');
  };
  return {
    owner,
    apiKey,
    session,
    api,
    async balances(env = 'sandbox') {
      const res = await session.get(`/v1/${env}/balances?currency=BRL&party_id=${owner.defaultPartyId}`);
      if (res.statusCode !== 200) throw new Error(`balances: ${res.statusCode} ${res.body}`);
      const out: Record<string, string> = { available: '0', pending: '0', locked: '0', trading: '0' };
      for (const row of res.json().data as { kind: string; balance_minor: string }[])
        out[row.kind] = row.balance_minor;
      return out;
    },
    feeRevenue: (env = 'sandbox') => sumOf(env, 'fee_revenue'),
    settlementNet: (env = 'sandbox') => sumOf(env, 'pix_settlement'),
    async paymentCount(kind = 'pix_cash_out', env = 'sandbox') {
      const { rows } = await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payments WHERE workspace_id = $1 AND environment = $2 AND kind = $3',
        [owner.workspaceId, env, kind],
      );
      return rows[0]!.n;
    },
    async journalCount() {
      const { rows } = await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_journals WHERE workspace_id = $1',
        [owner.workspaceId],
      );
      return rows[0]!.n;
    },
    async setSettlementKey(env = 'sandbox', body = SETTLEMENT_KEY) {
      const res = await session.put(`/v1/${env}/settlement-key`, body);
      if (res.statusCode !== 200) throw new Error(`settlement key: ${res.statusCode} ${res.body}`);
    },
    async cashIn(amountMinor) {
      const res = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: amountMinor });
      if (res.statusCode !== 200) throw new Error(`cash-in: ${res.statusCode} ${res.body}`);
    },
    async credit(env, amount) {
      await ctx.db.transaction((tx) =>
        postJournal(tx, {
          workspaceId: owner.workspaceId,
          environment: env,
          referenceType: 'test',
          referenceId: newId(),
          postings: [
            { account: systemAccount.pixSettlement(owner.workspaceId, env), direction: 'debit', amount },
            {
              account: partyAccount(owner.workspaceId, env, owner.defaultPartyId, 'BRL', 'available'),
              direction: 'credit',
              amount,
            },
          ],
        }),
      );
    },
    async eventTypes(paymentId) {
      const { rows } = await ctx.db.query<{ type: string }>(
        `SELECT type FROM events WHERE workspace_id = $1 AND payload->'data'->'object'->>'id' = $2 ORDER BY id`,
        [owner.workspaceId, paymentId],
      );
      return rows.map((row) => row.type);
    },
  };
}

/** Runs due jobs until none is left (or `rounds` passes). */
export async function drainJobs(ctx: TestContext, rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) if ((await runJobs(ctx.deps)) === 0) return;
}

/** A workspace with a settlement key and R$ 100.00, and one sandbox payout of `amountMinor` just acknowledged. */
export async function workspaceWithPayout(ctx: TestContext, amountMinor = '2000') {
  const ws = await pixWorkspace(ctx);
  await ws.setSettlementKey();
  await ws.cashIn('10000');
  const res = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: amountMinor, pix_key: 'x' });
  if (res.statusCode !== 200) throw new Error(`payout: ${res.statusCode} ${res.body}`);
  return { ws, payout: res.json().data as { id: string } };
}
