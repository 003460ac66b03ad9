/**
 * The one test world: an app on a fresh database, and workspaces in it with their keys, money,
 * settlement keys and payouts, set up through the API the way a user would.
 *
 *   const world = await startWorld({ sandboxSettleMs: 0 });
 *   const ws = await world.workspace('Acme', { settlementKey: true, fund: '10000' });
 *   const payout = await ws.payout('2500');
 *   await world.drainJobs();
 *   expect(await ws.balances()).toMatchObject({ available: '7400', locked: '0' });
 *
 * The primitives below it (signupOwner, createApiKey, enableProduction, client, authHeaders) stay
 * exported for the tests of sign-up, keys and authentication themselves.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../src/config.ts';
import type { Database, Queryable } from '../../src/db/types.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import { newId } from '../../src/platform/ids.ts';
import type { App } from '../../src/platform/schema.ts';
import { runJobs } from '../../src/worker.ts';
import { startTestApp, type TestContext } from './app.ts';

export type Env = 'sandbox' | 'live';

/** A valid CPF and CNPJ (check digits right), and a random key (EVP). */
export const CPF = '52998224725';
export const CNPJ = '11222333000181';
export const EVP = '123e4567-e89b-42d3-a456-426614174000';

/** The settlement key `setSettlementKey()` registers unless told otherwise. */
export const SETTLEMENT_KEY = {
  pix_key: 'Tesouraria@Acme.com.br',
  holder_name: 'Acme Pagamentos Ltda',
  holder_document: CNPJ,
};

export const PASSWORD = 'correct horse battery staple';

// ---------------------------------------------------------------------------------------------
// Primitives: one API call each.

export interface Owner {
  email: string;
  password: string;
  sessionToken: string;
  workspaceId: string;
  defaultPartyId: string;
  userId: string;
}

export async function signupOwner(app: App, name = 'Acme Pagamentos'): Promise<Owner> {
  const email = `owner-${randomUUID()}@example.com`;
  const res = await app.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    payload: { email, password: PASSWORD, workspace_name: name },
  });
  if (res.statusCode !== 200) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const { data } = res.json();
  return {
    email,
    password: PASSWORD,
    sessionToken: data.session_token,
    workspaceId: data.workspace.id,
    defaultPartyId: data.workspace.default_party_id,
    userId: data.user.id,
  };
}

/** Headers of a call by `credential` on `workspaceId`. */
export const authHeaders = (credential: string, workspaceId: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${credential}`,
  'x-workspace-id': workspaceId,
  ...extra,
});

export async function createApiKey(
  app: App,
  owner: Owner,
  env: Env = 'sandbox',
  body: { name?: string; party_id?: string } = {},
): Promise<{ id: string; secret: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/${env}/api-keys`,
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
    payload: { name: body.name ?? 'test key', ...body },
  });
  if (res.statusCode !== 200) throw new Error(`key creation failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export async function enableProduction(app: App, owner: Owner): Promise<void> {
  const res = await app.inject({
    method: 'PATCH',
    url: '/v1/live/workspace',
    headers: authHeaders(owner.sessionToken, owner.workspaceId),
    payload: { production_enabled: true },
  });
  if (res.statusCode !== 200) throw new Error(`enable production failed: ${res.body}`);
}

/** A small client bound to one credential and workspace. */
export function client(app: App, credential: string, workspaceId: string) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: authHeaders(credential, workspaceId, headers),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload ?? {}, headers),
    put: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('PUT', url, payload ?? {}, headers),
    patch: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      call('PATCH', url, payload ?? {}, headers),
    delete: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
  };
}

export type Client = ReturnType<typeof client>;

/** Credits a party through the sandbox cash-in helper (the caller's own party unless `partyId`); returns the payment. */
export async function cashIn(api: Client, amountMinor: string, partyId?: string) {
  const res = await api.post('/v1/sandbox/simulate/pix/cash-in', {
    amount_minor: amountMinor,
    ...(partyId ? { party_id: partyId } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`cash-in failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** A party of `workspaceId`, straight in the database (the API has no route that creates one). */
export async function addParty(q: Queryable, workspaceId: string, name = 'Customer'): Promise<string> {
  const id = newId();
  await q.query(`INSERT INTO parties (id, workspace_id, kind, display_name) VALUES ($1, $2, 'person', $3)`, [
    id,
    workspaceId,
    name,
  ]);
  return id;
}

/** A workspace with its default party and `extra` more parties, straight in the database (no app, no owner). */
export async function seedWorkspace(db: Database, extra = 0) {
  const workspace = await db.transaction((tx) => insertWorkspace(tx, { displayName: 'Ledger test' }));
  const parties = [workspace.default_party_id];
  for (let i = 0; i < extra; i++) parties.push(await addParty(db, workspace.id));
  return { workspaceId: workspace.id, parties };
}

/** Runs due jobs until none is left (or `rounds` passes). */
export async function drainJobs(ctx: TestContext, rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) if ((await runJobs(ctx.deps)) === 0) return;
}

// ---------------------------------------------------------------------------------------------
// The world and its workspaces.

/** What a new workspace gets before the test sees it. */
export interface WorkspaceSetup {
  /** Registers SETTLEMENT_KEY in the sandbox. */
  settlementKey?: boolean;
  /** Credits the default party this much (BRL minor units) through the sandbox cash-in. */
  fund?: string;
}

export interface Workspace {
  owner: Owner;
  /** The workspace-level sandbox key. */
  key: { id: string; secret: string };
  /** `key.secret`. */
  apiKey: string;
  /** A client on the sandbox key. */
  api: Client;
  /** A client on the owner's dashboard session. */
  session: Client;
  /** A new party of the workspace (straight in the database); its id. */
  addParty(name?: string): Promise<string>;
  /** A client on a new sandbox key scoped to `partyId`. */
  keyFor(partyId: string): Promise<Client>;
  /** Turns production on and returns a client on a new live key. */
  liveApi(): Promise<Client>;
  /** Credits the default party (or `partyId`) through the sandbox cash-in; returns the payment. */
  fund(amountMinor: string, partyId?: string): Promise<{ id: string; party_id: string }>;
  /** `fund`, under the name the PIX tests know it by. */
  cashIn(amountMinor: string): ReturnType<Workspace['fund']>;
  /** Credits the default party directly in the ledger (live has no cash-in helper). */
  credit(env: Env, amount: bigint): Promise<void>;
  setSettlementKey(env?: Env, body?: Record<string, unknown>): Promise<void>;
  /** A sandbox payout with the API key, acknowledged (200); returns the payment. */
  payout(amountMinor: string, body?: Record<string, unknown>): Promise<{ id: string }>;
  /** BRL balances of the default party (or `partyId`) by kind, as GET /balances shows them. */
  balances(env?: Env, partyId?: string): Promise<Record<string, string>>;
  /** Net fee revenue this workspace's journals brought (BRL minor units). */
  feeRevenue(env?: Env): Promise<bigint>;
  /** Net amount this workspace's journals moved through the PIX settlement account (credit positive). */
  settlementNet(env?: Env): Promise<bigint>;
  /** How many payments of a kind the workspace has. */
  paymentCount(kind?: string, env?: Env): Promise<number>;
  /** How many ledger journals the workspace has. */
  journalCount(): Promise<number>;
  /** Types of the events written for one payment, oldest first. */
  eventTypes(paymentId: string): Promise<string[]>;
}

/** A new workspace in the app of `ctx`: an owner signed up, a sandbox key, and what `setup` asks for. */
export async function openWorkspace(
  ctx: TestContext,
  name = 'Acme Pagamentos',
  setup: WorkspaceSetup = {},
): Promise<Workspace> {
  const { app, db } = ctx;
  const owner = await signupOwner(app, name);
  const key = await createApiKey(app, owner);
  const session = client(app, owner.sessionToken, owner.workspaceId);
  const api = client(app, key.secret, owner.workspaceId);
  const sumOf = async (env: Env, kind: string) => {
    const { rows } = await db.query<{ net: string | null }>(
      `SELECT sum(CASE WHEN p.direction = 'credit' THEN p.amount ELSE -p.amount END)::text AS net
         FROM ledger_postings p JOIN ledger_journals j ON j.workspace_id = p.workspace_id AND j.id = p.journal_id
        WHERE j.workspace_id = $1 AND j.environment = $2 AND p.kind = $3`,
      [owner.workspaceId, env, kind],
    );
    return BigInt(rows[0]?.net ?? '0');
  };
  const fund = (amountMinor: string, partyId?: string) => cashIn(api, amountMinor, partyId);
  const ws: Workspace = {
    owner,
    key,
    apiKey: key.secret,
    api,
    session,
    addParty: (partyName) => addParty(db, owner.workspaceId, partyName),
    async keyFor(partyId) {
      return client(
        app,
        (await createApiKey(app, owner, 'sandbox', { party_id: partyId })).secret,
        owner.workspaceId,
      );
    },
    async liveApi() {
      await enableProduction(app, owner);
      return client(app, (await createApiKey(app, owner, 'live')).secret, owner.workspaceId);
    },
    fund,
    cashIn: (amountMinor) => fund(amountMinor),
    async credit(env, amount) {
      await db.transaction((tx) =>
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
    async setSettlementKey(env = 'sandbox', body = SETTLEMENT_KEY) {
      const res = await session.put(`/v1/${env}/settlement-key`, body);
      if (res.statusCode !== 200) throw new Error(`settlement key: ${res.statusCode} ${res.body}`);
    },
    async payout(amountMinor, body = {}) {
      const res = await api.post('/v1/sandbox/pix/payouts', {
        amount_minor: amountMinor,
        pix_key: CPF,
        ...body,
      });
      if (res.statusCode !== 200) throw new Error(`payout: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async balances(env = 'sandbox', partyId = owner.defaultPartyId) {
      const res = await session.get(`/v1/${env}/balances?currency=BRL&party_id=${partyId}`);
      if (res.statusCode !== 200) throw new Error(`balances: ${res.statusCode} ${res.body}`);
      const out: Record<string, string> = { available: '0', pending: '0', locked: '0', trading: '0' };
      for (const row of res.json().data as { kind: string; balance_minor: string }[])
        out[row.kind] = row.balance_minor;
      return out;
    },
    feeRevenue: (env = 'sandbox') => sumOf(env, 'fee_revenue'),
    settlementNet: (env = 'sandbox') => sumOf(env, 'pix_settlement'),
    async paymentCount(kind = 'pix_cash_out', env = 'sandbox') {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payments WHERE workspace_id = $1 AND environment = $2 AND kind = $3',
        [owner.workspaceId, env, kind],
      );
      return rows[0]!.n;
    },
    async journalCount() {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger_journals WHERE workspace_id = $1',
        [owner.workspaceId],
      );
      return rows[0]!.n;
    },
    async eventTypes(paymentId) {
      const { rows } = await db.query<{ type: string }>(
        `SELECT type FROM events WHERE workspace_id = $1 AND payload->'data'->'object'->>'id' = $2 ORDER BY id`,
        [owner.workspaceId, paymentId],
      );
      return rows.map((row) => row.type);
    },
  };
  if (setup.settlementKey) await ws.setSettlementKey();
  if (setup.fund) await ws.fund(setup.fund);
  return ws;
}

/** The app of a test file (a TestContext) that also opens workspaces and runs the job queue. */
export interface World extends TestContext {
  workspace(name?: string, setup?: WorkspaceSetup): Promise<Workspace>;
  workspace(setup: WorkspaceSetup): Promise<Workspace>;
  /** Runs due jobs until none is left (or `rounds` passes). Jobs are the app's, not one workspace's. */
  drainJobs(rounds?: number): Promise<void>;
}

/** An app on a fresh database (startTestApp's arguments), as a World. */
export async function startWorld(
  overrides: Partial<Config> = {},
  beforeReady?: (app: App) => void,
): Promise<World> {
  const ctx = await startTestApp(overrides, beforeReady);
  return Object.assign(ctx, {
    workspace: (name?: string | WorkspaceSetup, setup?: WorkspaceSetup) =>
      typeof name === 'object' ? openWorkspace(ctx, undefined, name) : openWorkspace(ctx, name, setup),
    drainJobs: (rounds?: number) => drainJobs(ctx, rounds),
  });
}
