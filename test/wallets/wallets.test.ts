/**
 * Wallets over HTTP: provisioning through the key-management provider (real keys, real addresses,
 * checked here independently), an EVM address on every EVM network at once, watch-only wallets, the
 * primary rule, party resolution and scope, tenancy, sub-accounts, listing and events.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/modules/workspace/service.ts';
import { EVM_NETWORKS } from '../../src/providers/chain/networks.ts';
import {
  type CryptoWorkspace,
  cryptoWorkspace,
  evmSigner,
  independentlyValid,
  OUTSIDE,
  type Wallet,
} from '../crypto/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey } from '../support/fixtures.ts';

const WALLETS = '/v1/sandbox/wallets';
let ctx: TestContext;
let ws: CryptoWorkspace;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx);
});
afterAll(() => ctx.close());

async function walletRows(address: string) {
  const { rows } = await ctx.db.query<{ network: string; id: string; provider_ref: string | null }>(
    'SELECT network, id, provider_ref FROM wallets WHERE address = $1 ORDER BY network',
    [address],
  );
  return rows;
}

async function walletEvents(workspaceId = ws.owner.workspaceId) {
  const { rows } = await ctx.db.query<{ id: string; network: string }>(
    `SELECT payload->'data'->'object'->>'id' AS id, payload->'data'->'object'->>'network' AS network
       FROM events WHERE workspace_id = $1 AND type = 'wallet.created' ORDER BY id`,
    [workspaceId],
  );
  return rows;
}

describe('provisioning', () => {
  it('an EVM wallet: a real key, an EIP-55 address registered on every EVM network, the asked row answered', async () => {
    const eventsBefore = (await walletEvents()).length;
    const wallet = await ws.wallet('polygon', { wallet_name: 'Treasury' });
    expect(wallet).toMatchObject({
      workspace_id: ws.owner.workspaceId,
      party_id: ws.owner.defaultPartyId,
      environment: 'sandbox',
      network: 'polygon',
      wallet_name: 'Treasury',
      is_primary: false,
      watch_only: false,
    });
    expect(independentlyValid('evm', wallet.address)).toBe(true);
    // The key behind provider_ref signs for exactly this address.
    const digest = keccak_256(utf8ToBytes('proof of key'));
    const signature = await ctx.deps.providers.get('kms', 'sandbox').sign(wallet.provider_ref!, digest);
    expect(evmSigner(digest, signature)).toBe(wallet.address);

    const rows = await walletRows(wallet.address);
    expect(rows.map((row) => row.network)).toEqual([...EVM_NETWORKS].sort());
    expect(new Set(rows.map((row) => row.provider_ref))).toEqual(new Set([wallet.provider_ref]));
    expect(rows.find((row) => row.network === 'polygon')!.id).toBe(wallet.id);
    // Each row is a wallet of its own, announced.
    const events = (await walletEvents()).slice(eventsBefore);
    expect(events.map((event) => event.network).sort()).toEqual([...EVM_NETWORKS].sort());
    for (const network of EVM_NETWORKS) {
      const row = rows.find((each) => each.network === network)!;
      const got = await ws.api.get(`${WALLETS}/${row.id}`);
      expect(got.json().data).toMatchObject({ network, address: wallet.address });
    }
  });

  it('Tron and Solana wallets: one row each, addresses valid by their own definitions', async () => {
    for (const [network, family] of [
      ['tron', 'tron'],
      ['solana', 'solana'],
    ] as const) {
      const wallet = await ws.wallet(network);
      expect(independentlyValid(family, wallet.address), wallet.address).toBe(true);
      expect(wallet.provider_ref).toBeTruthy();
      expect((await walletRows(wallet.address)).map((row) => row.network)).toEqual([network]);
    }
  });

  it('takes the camelCase aliases walletName and isPrimary; both spellings disagreeing is 400', async () => {
    const wallet = await ws.wallet('base', { walletName: 'Ops', isPrimary: true });
    expect(wallet).toMatchObject({ wallet_name: 'Ops', is_primary: true, network: 'base' });
    const clash = await ws.api.post(WALLETS, { network: 'base', is_primary: true, isPrimary: false });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().error).toBe('invalid_request');
  });

  it('at most one primary per party and network: a new primary takes over, other networks untouched', async () => {
    const first = await ws.wallet('arbitrum', { is_primary: true });
    const second = await ws.wallet('arbitrum', { is_primary: true });
    expect((await ws.api.get(`${WALLETS}/${first.id}`)).json().data.is_primary).toBe(false);
    expect((await ws.api.get(`${WALLETS}/${second.id}`)).json().data.is_primary).toBe(true);
    const { rows } = await ctx.db.query<{ network: string; n: number }>(
      `SELECT network, count(*)::int AS n FROM wallets WHERE workspace_id = $1 AND party_id = $2 AND is_primary
        GROUP BY network ORDER BY network`,
      [ws.owner.workspaceId, ws.owner.defaultPartyId],
    );
    for (const row of rows) expect(row.n).toBe(1);
    expect(rows.map((row) => row.network)).toEqual(expect.arrayContaining(['arbitrum', 'base']));
  });

  it('a watch-only wallet from a caller-supplied address: no key, normalised, on every EVM network', async () => {
    const lower = OUTSIDE.evm.toLowerCase();
    const wallet = await ws.wallet('ethereum', { address: lower });
    expect(wallet).toMatchObject({ address: OUTSIDE.evm, provider_ref: null, watch_only: true });
    expect((await walletRows(OUTSIDE.evm)).map((row) => row.network)).toEqual([...EVM_NETWORKS].sort());
    // The same address again is a conflict, and nothing is added.
    const again = await ws.api.post(WALLETS, { network: 'bsc', address: OUTSIDE.evm });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('conflict');
    expect(await walletRows(OUTSIDE.evm)).toHaveLength(EVM_NETWORKS.length);
    const tron = await ws.wallet('tron', { address: OUTSIDE.tron });
    expect(tron).toMatchObject({ address: OUTSIDE.tron, watch_only: true });
  });
});

describe('refusals leave nothing behind', () => {
  const cases: [string, Record<string, unknown>, number, string, RegExp?][] = [
    ['unknown network', { network: 'dogecoin' }, 400, 'unsupported_network'],
    [
      'a Tron address on polygon',
      { network: 'polygon', address: OUTSIDE.tron },
      400,
      'invalid_address',
      /Tron.*polygon/,
    ],
    [
      'an EVM address on solana',
      { network: 'solana', address: OUTSIDE.evm },
      400,
      'invalid_address',
      /EVM.*solana/,
    ],
    [
      'a broken EIP-55 checksum',
      { network: 'base', address: OUTSIDE.evm.replace('a', 'A') },
      400,
      'invalid_address',
      /checksum/,
    ],
    ['no network', {}, 400, 'invalid_request'],
    ['a number for is_primary', { network: 'base', is_primary: 'yes' }, 400, 'invalid_request'],
    [
      'an unknown party',
      { network: 'base', party_id: '01890000-0000-7000-8000-000000000000' },
      404,
      'not_found',
    ],
  ];
  it.each(cases)('%s → %i %s', async (_name, body, status, code, message) => {
    const before = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallets');
    const keysBefore = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kms_keys');
    const res = await ws.api.post(WALLETS, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toBe(code);
    if (message) expect(res.json().message).toMatch(message);
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallets')).rows[0]!.n).toBe(
      before.rows[0]!.n,
    );
    expect((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kms_keys')).rows[0]!.n).toBe(
      keysBefore.rows[0]!.n,
    );
  });
});

describe('parties, scope and tenancy', () => {
  let partyId: string;
  let partyApi: ReturnType<typeof client>;
  let partyWallet: Wallet;

  beforeAll(async () => {
    const { rows } = await ctx.db.query<{ id: string }>(
      `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'person', 'Cliente') RETURNING id`,
      [ws.owner.workspaceId],
    );
    partyId = rows[0]!.id;
    const key = await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: partyId });
    partyApi = client(ctx.app, key.secret, ws.owner.workspaceId);
    partyWallet = await ws.wallet('tron', {}, partyApi);
  });

  it('party_id omitted: the key’s party for a party-scoped key, the default entity party otherwise', async () => {
    expect(partyWallet.party_id).toBe(partyId);
    expect((await ws.wallet('solana')).party_id).toBe(ws.owner.defaultPartyId);
    // A workspace-level key may name a party of the workspace.
    expect((await ws.wallet('solana', { party_id: partyId })).party_id).toBe(partyId);
  });

  it('a party-scoped key naming another party is 403; it sees only its own wallets, others are 404', async () => {
    const other = await partyApi.post(WALLETS, { network: 'tron', party_id: ws.owner.defaultPartyId });
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('forbidden');
    const list = (await partyApi.get(`${WALLETS}?limit=100`)).json().data as Wallet[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((wallet) => wallet.party_id === partyId)).toBe(true);
    const mine = (await ws.api.get(`${WALLETS}?party_id=${ws.owner.defaultPartyId}&limit=1`)).json().data[0];
    const hidden = await partyApi.get(`${WALLETS}/${mine.id}`);
    expect(hidden.statusCode).toBe(404);
    expect((await partyApi.get(`${WALLETS}/${mine.id}/transactions`)).statusCode).toBe(404);
    expect((await partyApi.get(`${WALLETS}?party_id=${ws.owner.defaultPartyId}`)).statusCode).toBe(403);
  });

  it("another workspace's wallet is 404, and it is absent from the list; a sandbox wallet is not live", async () => {
    const other = await cryptoWorkspace(ctx, 'Outra Ltda');
    const theirs = await other.wallet('polygon');
    expect((await ws.api.get(`${WALLETS}/${theirs.id}`)).statusCode).toBe(404);
    const ids = ((await ws.session.get(`${WALLETS}?limit=100`)).json().data as Wallet[]).map((w) => w.id);
    expect(ids).not.toContain(theirs.id);
    expect((await ws.session.get(`/v1/live/wallets/${partyWallet.id}`)).statusCode).toBe(404);
    expect((await ws.session.get('/v1/live/wallets')).json().data).toEqual([]);
  });

  it('acting on a sub-account: its wallets belong to the child workspace and its default party', async () => {
    const child = await ctx.db.transaction((tx) =>
      createWorkspace(tx, { displayName: 'Filial', parentWorkspaceId: ws.owner.workspaceId }),
    );
    const acting = { 'x-subaccount-id': child.id };
    const res = await ws.api.post(WALLETS, { network: 'polygon' }, acting);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ workspace_id: child.id, party_id: child.default_party_id });
    const childList = (await ws.api.get(WALLETS, acting)).json().data as Wallet[];
    expect(childList.map((w) => w.id)).toContain(res.json().data.id);
    expect(childList).toHaveLength(EVM_NETWORKS.length);
    // Not the parent's.
    expect((await ws.api.get(`${WALLETS}/${res.json().data.id}`)).statusCode).toBe(404);
    expect((await walletEvents(child.id)).length).toBe(EVM_NETWORKS.length);
    // A party-scoped key cannot act on a sub-account.
    expect((await partyApi.get(WALLETS, acting)).statusCode).toBe(403);
  });
});

describe('listing and transactions', () => {
  it('lists newest first and pages with limit and cursor; a bad limit is 400', async () => {
    const fresh = await cryptoWorkspace(ctx, 'Paginas');
    for (const network of ['tron', 'solana', 'tron']) await fresh.wallet(network);
    const all = (await fresh.api.get(`${WALLETS}?limit=100`)).json().data as Wallet[];
    expect(all).toHaveLength(3);
    expect(all.map((w) => w.id)).toEqual([...all.map((w) => w.id)].sort().reverse());
    const first = (await fresh.api.get(`${WALLETS}?limit=2`)).json().data as Wallet[];
    const rest = (await fresh.api.get(`${WALLETS}?limit=2&cursor=${first[1]!.id}`)).json().data as Wallet[];
    expect([...first, ...rest].map((w) => w.id)).toEqual(all.map((w) => w.id));
    expect((await fresh.api.get(`${WALLETS}?network=solana`)).json().data).toHaveLength(1);
    for (const limit of ['0', '101', 'x'])
      expect((await fresh.api.get(`${WALLETS}?limit=${limit}`)).statusCode).toBe(400);
  });

  it('transactions: limit 1..200 (default 50), 201 and 0 are 400; an unknown wallet is 404', async () => {
    const wallet = await ws.wallet('tron');
    for (let i = 0; i < 3; i++) await ws.deposit(wallet.id, String(1_000_000 + i));
    const txs = (await ws.api.get(`${WALLETS}/${wallet.id}/transactions`)).json().data;
    expect(txs.map((tx: { amount_minor: string }) => tx.amount_minor)).toEqual([
      '1000002',
      '1000001',
      '1000000',
    ]);
    expect(
      txs.every(
        (tx: { wallet_id: string; kind: string }) =>
          tx.wallet_id === wallet.id && tx.kind === 'crypto_deposit',
      ),
    ).toBe(true);
    const page = (await ws.api.get(`${WALLETS}/${wallet.id}/transactions?limit=1&cursor=${txs[0].id}`)).json()
      .data;
    expect(page.map((tx: { id: string }) => tx.id)).toEqual([txs[1].id]);
    expect((await ws.api.get(`${WALLETS}/${wallet.id}/transactions?limit=200`)).statusCode).toBe(200);
    for (const limit of ['0', '201'])
      expect((await ws.api.get(`${WALLETS}/${wallet.id}/transactions?limit=${limit}`)).statusCode).toBe(400);
    const unknown = await ws.api.get(`${WALLETS}/01890000-0000-7000-8000-000000000000/transactions`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
  });

  it('an Idempotency-Key replays the same wallet; another body under it is 409', async () => {
    const headers = { 'idempotency-key': 'wallet-create-1' };
    const first = await ws.api.post(WALLETS, { network: 'solana' }, headers);
    const again = await ws.api.post(WALLETS, { network: 'solana' }, headers);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    const other = await ws.api.post(WALLETS, { network: 'tron' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reuse');
  });

  it('live: wallets can be provisioned (keys are real in live too)', async () => {
    const res = await ws.session.post('/v1/live/wallets', { network: 'polygon' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.environment).toBe('live');
  });
});
