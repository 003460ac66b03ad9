/** Split sets over HTTP: replaced whole, read back, every refusal 422 invalid_split (or 403/404) with the set unchanged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey } from '../support/fixtures.ts';
import { LINKS, type Link, type LinksWorkspace, linksWorkspace } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
let other: LinksWorkspace;
let link: Link;
let parties: string[];

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx);
  other = await linksWorkspace(ctx, 'Outra');
  link = await ws.createLink();
  parties = [];
  for (let i = 0; i < 22; i++) parties.push(await ws.addParty(`Parceiro ${i}`));
});
afterAll(() => ctx.close());

const splitsOf = (id = link.id) => `${LINKS}/${id}/splits`;
const share = (party_id: string, share_bps: number, recipient_label?: string) => ({
  party_id,
  share_bps,
  ...(recipient_label ? { recipient_label } : {}),
});

describe('PUT and GET /payment-links/{id}/splits', () => {
  it('replaces the whole set, in order, and reads it back', async () => {
    const first = await ws.api.put(splitsOf(), {
      splits: [share(parties[0]!, 3000, 'Autora'), share(parties[1]!, 2000)],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject([
      { payment_link_id: link.id, party_id: parties[0], share_bps: 3000, recipient_label: 'Autora' },
      { payment_link_id: link.id, party_id: parties[1], share_bps: 2000, recipient_label: null },
    ]);
    expect((await ws.api.get(splitsOf())).json().data).toEqual(first.json().data);

    const second = await ws.api.put(splitsOf(), { splits: [share(parties[2]!, 10000)] });
    expect(second.json().data).toMatchObject([{ party_id: parties[2], share_bps: 10000 }]);
    expect((await ws.api.get(splitsOf())).json().data).toEqual(second.json().data);

    const cleared = await ws.api.put(splitsOf(), { splits: [] });
    expect(cleared.json().data).toEqual([]);
    expect((await ws.api.get(splitsOf())).json().data).toEqual([]);
  });

  it('takes 20 splits adding up to exactly 10000, and the owner among them', async () => {
    const twenty = parties.slice(0, 19).map((p) => share(p, 500));
    const res = await ws.api.put(splitsOf(), { splits: [...twenty, share(ws.owner.defaultPartyId, 500)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(20);
  });

  it('422 invalid_split for every broken rule, and the set in force stays', async () => {
    const inForce = (await ws.api.put(splitsOf(), { splits: [share(parties[0]!, 1000)] })).json().data;
    const cases: [string, unknown[]][] = [
      ['21 entries', parties.slice(0, 21).map((p) => share(p, 1))],
      ['share 0', [share(parties[0]!, 0)]],
      ['share above 10000', [share(parties[0]!, 10001)]],
      ['negative share', [share(parties[0]!, -5)]],
      ['total above 10000', [share(parties[0]!, 6000), share(parties[1]!, 4001)]],
      ['a party twice', [share(parties[0]!, 100), share(parties[0]!.toUpperCase(), 100)]],
      ['a party of another workspace', [share(other.owner.defaultPartyId, 100)]],
      ['an unknown party', [share('01890000-0000-7000-8000-000000000000', 100)]],
    ];
    for (const [name, splits] of cases) {
      const res = await ws.api.put(splitsOf(), { splits });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(422);
      expect(res.json().error, name).toBe('invalid_split');
      expect((await ws.api.get(splitsOf())).json().data, name).toEqual(inForce);
    }
  });

  it('400 invalid_request for a body of the wrong shape', async () => {
    for (const body of [
      {},
      { splits: 'x' },
      { splits: [{ party_id: 'nope', share_bps: 1 }] },
      { splits: [{ party_id: parties[0], share_bps: 1.5 }] },
    ]) {
      const res = await ws.api.put(splitsOf(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('404 for an unknown link and another workspace’s link', async () => {
    for (const res of [
      await ws.api.put(splitsOf('01890000-0000-7000-8000-000000000000'), { splits: [] }),
      await other.api.put(splitsOf(), { splits: [] }),
      await other.api.get(splitsOf()),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('a party-scoped key splits only its own link, and cannot name another party (403)', async () => {
    const bia = parties[21]!;
    const biaApi = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: bia })).secret,
      ws.owner.workspaceId,
    );
    const own = (await biaApi.post(LINKS, { amount_minor: '100' })).json().data;
    const naming = await biaApi.put(splitsOf(own.id), { splits: [share(parties[0]!, 100)] });
    expect(naming.statusCode).toBe(403);
    expect(naming.json().error).toBe('forbidden');
    expect((await biaApi.put(splitsOf(own.id), { splits: [share(bia, 100)] })).statusCode).toBe(200);
    expect((await biaApi.get(splitsOf(link.id))).statusCode).toBe(404);
    expect((await biaApi.put(splitsOf(link.id), { splits: [] })).statusCode).toBe(404);
  });

  it('acting on a sub-account: recipients are the sub-account’s parties', async () => {
    const child = await ws.addSubaccount();
    const acting = { 'x-subaccount-id': child.id };
    const childLink = await ws.createLink({ amount_minor: '100' }, acting);
    const parentParty = await ws.api.put(
      splitsOf(childLink.id),
      { splits: [share(parties[0]!, 100)] },
      acting,
    );
    expect(parentParty.statusCode).toBe(422);
    expect(parentParty.json().error).toBe('invalid_split');
    const childParty = await ws.api.put(
      splitsOf(childLink.id),
      { splits: [share(child.partyId, 100)] },
      acting,
    );
    expect(childParty.statusCode, childParty.body).toBe(200);
    expect((await ws.api.get(splitsOf(childLink.id))).statusCode).toBe(404);
  });
});
