/**
 * The owner's whitelist of crypto destinations: dashboard-only, per environment, the address checked
 * for its network and stored normalised, each change audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CryptoWorkspace, cryptoWorkspace, OUTSIDE } from '../crypto/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

const WHITELIST = '/v1/sandbox/whitelist';
let ctx: TestContext;
let ws: CryptoWorkspace;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx);
});
afterAll(() => ctx.close());

async function audit(action: string) {
  const { rows } = await ctx.db.query<{
    target_id: string;
    metadata: Record<string, unknown>;
    actor_id: string;
  }>(
    'SELECT target_id, metadata, actor_id FROM audit_events WHERE workspace_id = $1 AND action = $2 ORDER BY id',
    [ws.owner.workspaceId, action],
  );
  return rows;
}

const count = async () =>
  (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM whitelist_addresses')).rows[0]!.n;

describe('whitelist', () => {
  it('adds an address normalised (EIP-55), lists it, audits it', async () => {
    const res = await ws.session.post(WHITELIST, {
      network: 'polygon',
      address: OUTSIDE.evm.toLowerCase(),
      label: 'Exchange',
    });
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().data;
    expect(entry).toMatchObject({
      workspace_id: ws.owner.workspaceId,
      environment: 'sandbox',
      network: 'polygon',
      address: OUTSIDE.evm,
      label: 'Exchange',
    });
    const list = (await ws.session.get(WHITELIST)).json().data;
    expect(list.map((e: { id: string }) => e.id)).toContain(entry.id);
    const added = await audit('whitelist.added');
    expect(added.at(-1)).toMatchObject({
      target_id: entry.id,
      actor_id: ws.owner.userId,
      metadata: { network: 'polygon', address: OUTSIDE.evm },
    });
  });

  it('the same address twice on a network is 409; on another EVM network it is a separate entry', async () => {
    const again = await ws.session.post(WHITELIST, { network: 'polygon', address: OUTSIDE.evm });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('conflict');
    const base = await ws.session.post(WHITELIST, { network: 'base', address: OUTSIDE.evm });
    expect(base.statusCode).toBe(200);
    const polygonOnly = (await ws.session.get(`${WHITELIST}?network=polygon`)).json().data;
    expect(polygonOnly.every((e: { network: string }) => e.network === 'polygon')).toBe(true);
  });

  it.each([
    ['a Tron address on polygon', { network: 'polygon', address: OUTSIDE.tron }, 400, 'invalid_address'],
    ['a Solana address on tron', { network: 'tron', address: OUTSIDE.solana }, 400, 'invalid_address'],
    ['garbage on solana', { network: 'solana', address: '0OIl' }, 400, 'invalid_address'],
    ['an unknown network', { network: 'bitcoin', address: OUTSIDE.evm }, 400, 'unsupported_network'],
    ['no address', { network: 'tron' }, 400, 'invalid_request'],
  ])('%s → %i %s, nothing stored', async (_name, body, status, code) => {
    const before = await count();
    const res = await ws.session.post(WHITELIST, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toBe(code);
    expect(await count()).toBe(before);
  });

  it('is per environment: a sandbox entry is not in live', async () => {
    const live = (await ws.session.get('/v1/live/whitelist')).json().data;
    expect(live).toEqual([]);
    const added = await ws.session.post('/v1/live/whitelist', { network: 'tron', address: OUTSIDE.tron });
    expect(added.json().data.environment).toBe('live');
    const sandbox = (await ws.session.get(WHITELIST)).json().data;
    expect(sandbox.map((e: { id: string }) => e.id)).not.toContain(added.json().data.id);
  });

  it('an API key can neither read nor change it (403 forbidden)', async () => {
    expect((await ws.api.get(WHITELIST)).statusCode).toBe(403);
    const res = await ws.api.post(WHITELIST, { network: 'tron', address: OUTSIDE.tron });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it('removes an entry (audited); removing it again, or another workspace’s, is 404', async () => {
    const entry = (await ws.session.post(WHITELIST, { network: 'solana', address: OUTSIDE.solana })).json()
      .data;
    const other = await cryptoWorkspace(ctx, 'Outra');
    expect((await other.session.delete(`${WHITELIST}/${entry.id}`)).statusCode).toBe(404);
    const removed = await ws.session.delete(`${WHITELIST}/${entry.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.id).toBe(entry.id);
    expect((await audit('whitelist.removed')).at(-1)).toMatchObject({ target_id: entry.id });
    expect((await ws.session.delete(`${WHITELIST}/${entry.id}`)).statusCode).toBe(404);
    expect((await ws.session.get(WHITELIST)).json().data.map((e: { id: string }) => e.id)).not.toContain(
      entry.id,
    );
  });

  it('pages with limit and cursor', async () => {
    const all = (await ws.session.get(`${WHITELIST}?limit=100`)).json().data;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = (await ws.session.get(`${WHITELIST}?limit=1`)).json().data;
    const next = (await ws.session.get(`${WHITELIST}?limit=1&cursor=${first[0].id}`)).json().data;
    expect([first[0].id, next[0].id]).toEqual(all.slice(0, 2).map((e: { id: string }) => e.id));
    expect((await ws.session.get(`${WHITELIST}?limit=0`)).statusCode).toBe(400);
  });
});
