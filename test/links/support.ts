/**
 * Shared set-up of the payment-link tests: a PIX workspace plus extra parties, sub-accounts, the
 * public checkout calls and what a user can observe (balances per party, checkout records).
 * Parties and sub-accounts are inserted with SQL here: the API to create them is another issue's.
 */
import { expect } from 'vitest';
import { newId } from '../../src/platform/ids.ts';
import { type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import type { TestContext } from '../support/app.ts';

export { CNPJ, CPF } from '../pix/support.ts';

export const LINKS = '/v1/sandbox/payment-links';

export interface LinksWorkspace extends PixWorkspace {
  /** A new party (a customer) of this workspace. */
  addParty(name?: string): Promise<string>;
  /** A child workspace (sub-account) with its default entity party. */
  addSubaccount(): Promise<{ id: string; partyId: string }>;
  /** BRL available of any party of the workspace (or of a sub-account), as GET /balances shows it. */
  available(partyId: string, subaccount?: string): Promise<bigint>;
  createLink(body?: Record<string, unknown>, headers?: Record<string, string>): Promise<Link>;
  /** Sets a cash-in fee on this workspace's sandbox charges. */
  setCashInFee(fixedMinor: number, bps: number): Promise<void>;
}

export interface Link {
  id: string;
  slug: string;
  party_id: string;
  status: string;
  [key: string]: unknown;
}

export async function insertParty(
  ctx: TestContext,
  workspaceId: string,
  name = 'Bia Souza',
): Promise<string> {
  const id = newId();
  await ctx.db.query(
    `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES ($1, $2, 'person', $3)`,
    [id, workspaceId, name],
  );
  return id;
}

export async function linksWorkspace(ctx: TestContext, name?: string): Promise<LinksWorkspace> {
  const ws = await pixWorkspace(ctx, name);
  return {
    ...ws,
    addParty: (partyName) => insertParty(ctx, ws.owner.workspaceId, partyName),
    async addSubaccount() {
      const id = newId();
      await ctx.db.query(
        `INSERT INTO workspaces (id, parent_workspace_id, display_name) VALUES ($1, $2, 'Child')`,
        [id, ws.owner.workspaceId],
      );
      const partyId = newId();
      await ctx.db.query(
        `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES ($1, $2, 'entity', 'Child')`,
        [partyId, id],
      );
      await ctx.db.query('UPDATE workspaces SET default_party_id = $2 WHERE id = $1', [id, partyId]);
      return { id, partyId };
    },
    async available(partyId, subaccount) {
      const headers = subaccount ? { 'x-subaccount-id': subaccount } : undefined;
      const res = await ws.api.get(`/v1/sandbox/balances?currency=BRL&party_id=${partyId}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      const row = (res.json().data as { kind: string; balance_minor: string }[]).find(
        (b) => b.kind === 'available',
      );
      return BigInt(row?.balance_minor ?? '0');
    },
    async createLink(body = { amount_minor: '5000', title: 'Camiseta' }, headers) {
      const res = await ws.api.post(LINKS, body, headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    },
    async setCashInFee(fixedMinor, bps) {
      await ctx.db.query(
        `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', $2, $3)
         ON CONFLICT (workspace_id, environment, rail) DO UPDATE SET fixed_minor = $2, bps = $3`,
        [ws.owner.workspaceId, fixedMinor, bps],
      );
    },
  };
}

/** The public checkout, as the hosted page calls it (no credential). */
export function startCheckout(
  ctx: TestContext,
  slug: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return ctx.app.inject({ method: 'POST', url: `/pay/${slug}/checkout`, payload: body, headers });
}

/** A checkout that must succeed: the charge as the page receives it. */
export async function checkout(ctx: TestContext, slug: string, body: Record<string, unknown>) {
  const res = await startCheckout(ctx, slug, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; status: string; amount_minor: string; pix_qr_code: string };
}

/** How many checkout records and payments a workspace has: a refused checkout leaves neither. */
export async function checkoutTrace(ctx: TestContext, workspaceId: string) {
  const { rows } = await ctx.db.query<{ records: number; payments: number }>(
    `SELECT (SELECT count(*)::int FROM payment_link_payments WHERE workspace_id = $1) AS records,
            (SELECT count(*)::int FROM payments WHERE workspace_id = $1 AND kind = 'pix_cash_in') AS payments`,
    [workspaceId],
  );
  return rows[0]!;
}

export const payer = (document: string, name = 'João da Silva') => ({ payer: { name, document } });
