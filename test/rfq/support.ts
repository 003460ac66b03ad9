/** Shared set-up of the RFQ tests: a PIX workspace that can also hold stablecoins, and what a user sees. */
import { expect } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import type { Currency } from '../../src/ledger/currency.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import type { Environment } from '../../src/platform/context.ts';
import { newId } from '../../src/platform/ids.ts';
import { pixWorkspace } from '../pix/support.ts';
import type { TestContext } from '../support/app.ts';

export const QUOTE = '/v1/sandbox/rfq/quote';
export const EXECUTE = '/v1/sandbox/rfq/execute';
export const quoteUrl = (id: string, env = 'sandbox') => `/v1/${env}/rfq/quotes/${id}`;
export const expireUrl = (id: string) => `/v1/sandbox/simulate/quotes/${id}/expire`;

/** Every party balance of a workspace by "CURRENCY:kind" (non-zero ones), as GET /balances shows them. */
export type Books = Record<string, string>;

export async function rfqWorkspace(ctx: TestContext, name = 'Câmbio Ltda') {
  const ws = await pixWorkspace(ctx, name);
  const { owner } = ws;
  /** Non-zero balances of one party (the default one unless given), through the API. */
  const books = async (
    options: { partyId?: string; env?: Environment; headers?: Record<string, string> } = {},
  ): Promise<Books> => {
    const env = options.env ?? 'sandbox';
    const party = options.partyId ?? owner.defaultPartyId;
    const res = await ws.session.get(`/v1/${env}/balances?party_id=${party}`, options.headers);
    expect(res.statusCode, res.body).toBe(200);
    const out: Books = {};
    for (const row of res.json().data as { currency: string; kind: string; balance_minor: string }[]) {
      if (row.balance_minor !== '0') out[`${row.currency}:${row.kind}`] = row.balance_minor;
    }
    return out;
  };
  return {
    ...ws,
    books,
    /** Credits a party directly in the ledger, from the workspace's crypto custody or PIX settlement. */
    fund: (
      currency: Currency,
      amount: bigint,
      partyId = owner.defaultPartyId,
      env: Environment = 'sandbox',
    ) => fundParty(ctx.db, { workspaceId: owner.workspaceId, env, partyId, currency, amount }),
    /** Net of every posting on a system account kind of this workspace, per currency (credit positive). */
    systemNet: (kind: string, currency: Currency, env: Environment = 'sandbox') =>
      systemNet(ctx.db, owner.workspaceId, env, kind, currency),
  };
}

export async function fundParty(
  db: Database,
  input: { workspaceId: string; env: Environment; partyId: string; currency: Currency; amount: bigint },
): Promise<void> {
  const { workspaceId, env, partyId, currency, amount } = input;
  const source =
    currency === 'BRL'
      ? systemAccount.pixSettlement(workspaceId, env)
      : systemAccount.cryptoCustody(workspaceId, env, 'polygon', currency);
  await db.transaction((tx) =>
    postJournal(tx, {
      workspaceId,
      environment: env,
      referenceType: 'test',
      referenceId: newId(),
      postings: [
        { account: source, direction: 'debit', amount },
        { account: partyAccount(workspaceId, env, partyId, currency), direction: 'credit', amount },
      ],
    }),
  );
}

export async function systemNet(
  db: Database,
  workspaceId: string,
  env: Environment,
  kind: string,
  currency: Currency,
): Promise<bigint> {
  const { rows } = await db.query<{ net: string | null }>(
    `SELECT sum(CASE WHEN p.direction = 'credit' THEN p.amount ELSE -p.amount END)::text AS net
       FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
      WHERE a.workspace_id = $1 AND a.environment = $2 AND a.kind = $3 AND a.currency = $4 AND a.party_id IS NULL`,
    [workspaceId, env, kind, currency],
  );
  return BigInt(rows[0]?.net ?? '0');
}

/** Types of the events of a workspace, oldest first. */
export async function eventTypes(db: Database, workspaceId: string): Promise<string[]> {
  const { rows } = await db.query<{ type: string }>(
    'SELECT type FROM events WHERE workspace_id = $1 ORDER BY id',
    [workspaceId],
  );
  return rows.map((row) => row.type);
}
