import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client } from '../support/fixtures.ts';
import { type Parent, parentWorkspace } from './support.ts';

let ctx: TestContext;
let parent: Parent;
let other: Parent;
beforeAll(async () => {
  ctx = await startTestApp();
  parent = await parentWorkspace(ctx);
  other = await parentWorkspace(ctx, 'Other Platform');
});
afterAll(() => ctx.close());

const UNKNOWN = '01890000-0000-7000-8000-000000000000';

describe('POST /v1/{env}/subaccounts', () => {
  it('creates a child workspace with its own default entity party, and subaccount.created', async () => {
    const res = await parent.api.post('/v1/sandbox/subaccounts', {
      display_name: 'Loja da Ana',
      legal_name: 'Ana Comércio ME',
      country: 'BR',
      settings: { payout_day: 5 },
    });
    expect(res.statusCode).toBe(200);
    const sub = res.json().data;
    expect(Object.keys(sub).sort()).toEqual(
      [
        'id',
        'parent_workspace_id',
        'display_name',
        'legal_name',
        'country',
        'created_at',
        'status',
        'party_id',
        'settings',
      ].sort(),
    );
    expect(sub).toMatchObject({
      parent_workspace_id: parent.owner.workspaceId,
      display_name: 'Loja da Ana',
      legal_name: 'Ana Comércio ME',
      country: 'BR',
      status: 'active',
      settings: { payout_day: 5 },
    });
    const party = await ctx.db.query<{ workspace_id: string; kind: string }>(
      'SELECT workspace_id, kind FROM parties WHERE id = $1',
      [sub.party_id],
    );
    expect(party.rows).toEqual([{ workspace_id: sub.id, kind: 'entity' }]);
    const events = await ctx.db.query<{ type: string }>(
      "SELECT type FROM events WHERE workspace_id = $1 AND payload->'data'->'object'->>'id' = $2",
      [parent.owner.workspaceId, sub.id],
    );
    expect(events.rows).toEqual([{ type: 'subaccount.created' }]);
  });

  it('400 invalid_request without display_name or with a bad country', async () => {
    for (const body of [{}, { display_name: '' }, { display_name: 'X', country: 'Brazil' }]) {
      const res = await parent.api.post('/v1/sandbox/subaccounts', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('422 subaccount_depth_exceeded for a sub-account asking, by its own key or its parent owner', async () => {
    const sub = await parent.subaccount();
    const onChild = parent.sessionOn(sub.id);
    const res = await onChild.post('/v1/sandbox/subaccounts', { display_name: 'Grandchild' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('subaccount_depth_exceeded');
    const key = (await onChild.post('/v1/sandbox/api-keys', { name: 'child key' })).json().data.secret;
    const byKey = await client(ctx.app, key, sub.id).post('/v1/sandbox/subaccounts', { display_name: 'G' });
    expect(byKey.statusCode).toBe(422);
    expect(byKey.json().error).toBe('subaccount_depth_exceeded');
  });

  it('403 forbidden for a party-scoped key; 400 with X-Subaccount-Id', async () => {
    const key = await parent.session.post('/v1/sandbox/api-keys', {
      name: 'scoped',
      party_id: parent.owner.defaultPartyId,
    });
    const scoped = client(ctx.app, key.json().data.secret, parent.owner.workspaceId);
    for (const res of [
      await scoped.post('/v1/sandbox/subaccounts', { display_name: 'X' }),
      await scoped.get('/v1/sandbox/subaccounts'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    const sub = await parent.subaccount();
    const acting = await parent.api.post(
      '/v1/sandbox/subaccounts',
      { display_name: 'X' },
      { 'x-subaccount-id': sub.id },
    );
    expect(acting.statusCode).toBe(400);
    expect(acting.json().error).toBe('invalid_request');
  });
});

describe('GET /v1/{env}/subaccounts', () => {
  it('lists own sub-accounts newest first, pages, and gets one', async () => {
    const fresh = await parentWorkspace(ctx, 'Lister');
    const a = await fresh.subaccount();
    const b = await fresh.subaccount();
    const list = await fresh.api.get('/v1/sandbox/subaccounts');
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([b.id, a.id]);
    const page = await fresh.api.get(`/v1/sandbox/subaccounts?limit=1&cursor=${b.id}`);
    expect(page.json().data.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await fresh.api.get('/v1/sandbox/subaccounts?limit=0')).statusCode).toBe(400);
    const one = await fresh.api.get(`/v1/sandbox/subaccounts/${a.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(a);
  });

  it("404 for an unknown id, another workspace's sub-account, or the workspace itself", async () => {
    const theirs = await other.subaccount();
    for (const id of [UNKNOWN, theirs.id, parent.owner.workspaceId]) {
      const res = await parent.api.get(`/v1/sandbox/subaccounts/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const list = await parent.api.get('/v1/sandbox/subaccounts');
    expect(list.json().data.map((s: { id: string }) => s.id)).not.toContain(theirs.id);
  });
});

describe("the parent's owners manage the child", () => {
  it('a parent session on the child creates keys that act on the child only', async () => {
    const sub = await parent.subaccount();
    const onChild = parent.sessionOn(sub.id);
    const created = await onChild.post('/v1/sandbox/api-keys', { name: 'seller key' });
    expect(created.statusCode).toBe(200);
    expect(created.json().data.workspace_id).toBe(sub.id);
    const childKey = created.json().data.secret;

    const balances = await client(ctx.app, childKey, sub.id).get('/v1/sandbox/balances');
    expect(balances.statusCode).toBe(200);
    expect(balances.json().data[0].party_id).toBe(sub.party_id);
    // The child's key is not the parent's: on the parent it is another workspace's credential.
    const onParent = await client(ctx.app, childKey, parent.owner.workspaceId).get('/v1/sandbox/balances');
    expect(onParent.statusCode).toBe(401);
    expect(onParent.json().error).toBe('invalid_credentials');
    // Nor can it act on its siblings or its parent.
    const sibling = await parent.subaccount();
    const acting = await client(ctx.app, childKey, sub.id).get('/v1/sandbox/balances', {
      'x-subaccount-id': sibling.id,
    });
    expect(acting.statusCode).toBe(404);
  });

  it("another owner's session is refused on the child", async () => {
    const sub = await parent.subaccount();
    const res = await client(ctx.app, other.owner.sessionToken, sub.id).get('/v1/sandbox/api-keys');
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it("a parent session on the child sees the child's records, not the parent's", async () => {
    const sub = await parent.subaccount();
    const res = await parent.sessionOn(sub.id).get('/v1/sandbox/api-keys');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.every((k: { workspace_id: string }) => k.workspace_id === sub.id)).toBe(true);
  });
});
