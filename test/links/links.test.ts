/**
 * Payment links over HTTP: create (fixed or open amount, slugs, expiry), read, list, update; every
 * refusal with its status and code and no trace; tenancy, party scope and acting on a sub-account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, enableProduction } from '../support/fixtures.ts';
import { LINKS, type Link, type LinksWorkspace, linksWorkspace } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
let other: LinksWorkspace;

beforeAll(async () => {
  ctx = await startTestApp({ publicBaseUrl: 'https://pay.example.com' });
  ws = await linksWorkspace(ctx);
  other = await linksWorkspace(ctx, 'Outra Loja');
});
afterAll(() => ctx.close());

const linkCount = async () => {
  const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links');
  return rows[0]!.n;
};

/** A refused create: the status and code, and no link or slug written. */
async function refused(body: Record<string, unknown>, status: number, code: string, api = ws.api) {
  const before = await linkCount();
  const res = await api.post(LINKS, body);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toBe(code);
  expect(await linkCount()).toBe(before);
  return res.json();
}

describe('POST /payment-links', () => {
  it('creates a fixed-amount link with a random slug, owned by the default party', async () => {
    const link = await ws.createLink({ amount_minor: '5000', title: 'Camiseta', description: 'Tamanho M' });
    expect(link).toMatchObject({
      workspace_id: ws.owner.workspaceId,
      environment: 'sandbox',
      party_id: ws.owner.defaultPartyId,
      amount_minor: '5000',
      currency: 'BRL',
      allow_custom_amount: false,
      status: 'active',
      title: 'Camiseta',
      description: 'Tamanho M',
      design: {},
      metadata: {},
      expires_at: null,
    });
    expect(link.slug).toMatch(/^[a-z0-9]{10}$/);
    // Absolute, from PUBLIC_BASE_URL: the owner can send it as it is.
    expect(link.url).toBe(`https://pay.example.com/pay/${link.slug}`);
  });

  it('creates an open-amount link (the buyer prices it), with a chosen slug, design and metadata', async () => {
    const link = await ws.createLink({
      allow_custom_amount: true,
      slug: 'doacao-abrigo-2026',
      design: { brand_color: '#AA3300', background_color: '#ffffff' },
      metadata: { campaign: 'inverno' },
    });
    expect(link).toMatchObject({
      amount_minor: null,
      allow_custom_amount: true,
      slug: 'doacao-abrigo-2026',
      design: { brand_color: '#AA3300', background_color: '#ffffff' },
      metadata: { campaign: 'inverno' },
    });
  });

  it('400 invalid_amount with neither a fixed amount nor allow_custom_amount, and for zero', async () => {
    const body = await refused({ title: 'Nada' }, 400, 'invalid_amount');
    expect(body.details).toEqual([
      { field: 'body.amount_minor', issue: 'required unless allow_custom_amount is true' },
    ]);
    await refused({ allow_custom_amount: false }, 400, 'invalid_amount');
    await refused({ amount_minor: '0' }, 400, 'invalid_amount');
    await refused({ amount_minor: '12.50' }, 400, 'invalid_amount');
    await refused({ amount_minor: 1250 }, 400, 'invalid_amount');
  });

  it('400 unsupported_currency: the checkout is PIX, in BRL', async () => {
    const body = await refused({ amount_minor: '100', currency: 'USDT' }, 400, 'unsupported_currency');
    expect(body.details).toEqual([{ field: 'body.currency', issue: 'must be BRL on PIX' }]);
    await refused({ amount_minor: '100', currency: 'XYZ' }, 400, 'unsupported_currency');
  });

  it('400 invalid_request for a slug outside API.md’s pattern', async () => {
    for (const slug of ['ab', 'AB-C', '-abc', 'abc-', 'a_bc', 'ação', 'a'.repeat(65), '']) {
      await refused({ amount_minor: '100', slug }, 400, 'invalid_request');
    }
    expect((await ws.createLink({ amount_minor: '100', slug: 'a'.repeat(64) })).slug).toHaveLength(64);
    expect((await ws.createLink({ amount_minor: '100', slug: 'a1b' })).slug).toBe('a1b');
  });

  it('409 slug_taken for a slug any workspace holds, in either environment, and nothing is written', async () => {
    await ws.createLink({ amount_minor: '100', slug: 'loja-central' });
    await refused({ amount_minor: '100', slug: 'loja-central' }, 409, 'slug_taken');
    await refused({ amount_minor: '100', slug: 'loja-central' }, 409, 'slug_taken', other.api);
    await enableProduction(ctx.app, ws.owner);
    const live = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'live')).secret,
      ws.owner.workspaceId,
    );
    const res = await live.post('/v1/live/payment-links', { amount_minor: '100', slug: 'loja-central' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('slug_taken');
    const fresh = await live.post('/v1/live/payment-links', {
      amount_minor: '100',
      slug: 'loja-central-live',
    });
    expect(fresh.json().data).toMatchObject({ environment: 'live', slug: 'loja-central-live' });
  });

  it('400 for an expires_at in the past; a link past expires_at reads expired', async () => {
    await refused(
      { amount_minor: '100', expires_at: new Date(Date.now() - 60_000).toISOString() },
      400,
      'invalid_request',
    );
    const expiresAt = new Date(ctx.clock.now().getTime() + 3_600_000).toISOString();
    const link = await ws.createLink({ amount_minor: '100', expires_at: expiresAt });
    expect(link).toMatchObject({ status: 'active', expires_at: expiresAt });
    ctx.clock.advance(3_600_000);
    try {
      expect((await ws.api.get(`${LINKS}/${link.id}`)).json().data.status).toBe('expired');
      const listed = (await ws.api.get(LINKS)).json().data.find((l: { id: string }) => l.id === link.id);
      expect(listed.status).toBe('expired');
    } finally {
      ctx.clock.advance(-3_600_000);
    }
  });

  it('400 invalid_request for colours that are not #rrggbb (they would reach the page CSS)', async () => {
    for (const colour of ['red', '#fff', '#12345g', 'url(x)', '#000000;}body{x:y']) {
      await refused({ amount_minor: '100', design: { brand_color: colour } }, 400, 'invalid_request');
    }
  });

  it('takes an Idempotency-Key: a retry answers the same link and writes one', async () => {
    const headers = { 'idempotency-key': 'link-once' };
    const first = await ws.api.post(LINKS, { amount_minor: '700' }, headers);
    const before = await linkCount();
    const again = await ws.api.post(LINKS, { amount_minor: '700' }, headers);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await linkCount()).toBe(before);
  });

  it('writes an audit entry', async () => {
    const link = await ws.createLink();
    const audit = (await ws.session.get('/v1/sandbox/audit-events')).json().data;
    expect(
      audit.some(
        (e: { action: string; target_id: string }) =>
          e.action === 'payment_link.created' && e.target_id === link.id,
      ),
    ).toBe(true);
  });
});

describe('GET, list and PATCH', () => {
  it('GET one; 404 for an unknown id, another workspace’s link and the other environment', async () => {
    const link = await ws.createLink();
    expect((await ws.api.get(`${LINKS}/${link.id}`)).json().data).toEqual(link);
    for (const res of [
      await ws.api.get(`${LINKS}/01890000-0000-7000-8000-000000000000`),
      await other.api.get(`${LINKS}/${link.id}`),
      await ws.session.get(`/v1/live/payment-links/${link.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('lists newest first, paging by cursor; limit out of 1..100 is 400', async () => {
    const fresh = await linksWorkspace(ctx, 'Paginada');
    const made: Link[] = [];
    for (let i = 0; i < 3; i++) made.push(await fresh.createLink({ amount_minor: `${100 + i}` }));
    const first = (await fresh.api.get(`${LINKS}?limit=2`)).json().data;
    expect(first.map((l: { id: string }) => l.id)).toEqual([made[2]!.id, made[1]!.id]);
    const rest = (await fresh.api.get(`${LINKS}?limit=2&cursor=${first[1].id}`)).json().data;
    expect(rest.map((l: { id: string }) => l.id)).toEqual([made[0]!.id]);
    for (const limit of ['0', '101', 'x']) {
      const res = await fresh.api.get(`${LINKS}?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    expect((await other.api.get(LINKS)).json().data.some((l: { id: string }) => l.id === made[0]!.id)).toBe(
      false,
    );
  });

  it('PATCH changes title, description, design, allow_custom_amount and status; slug and amount stay', async () => {
    const link = await ws.createLink({ amount_minor: '2500', title: 'Antes' });
    const res = await ws.api.patch(`${LINKS}/${link.id}`, {
      title: 'Depois',
      description: 'Nova descrição',
      design: { brand_color: '#112233' },
      allow_custom_amount: true,
      status: 'inactive',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      title: 'Depois',
      description: 'Nova descrição',
      design: { brand_color: '#112233' },
      allow_custom_amount: true,
      status: 'inactive',
      slug: link.slug,
      amount_minor: '2500',
    });
    const back = await ws.api.patch(`${LINKS}/${link.id}`, { status: 'active' });
    expect(back.json().data.status).toBe('active');
  });

  it('PATCH refusals leave the link as it was', async () => {
    const open = await ws.createLink({ allow_custom_amount: true, title: 'Aberto' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ allow_custom_amount: false }, 400, 'invalid_amount'],
      [{ status: 'expired' }, 400, 'invalid_request'],
      [{ design: { background_color: 'blue' } }, 400, 'invalid_request'],
      [{ title: '' }, 400, 'invalid_request'],
      [{ slug: 'a-new-slug' }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await ws.api.patch(`${LINKS}/${open.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(code);
    }
    expect((await ws.api.get(`${LINKS}/${open.id}`)).json().data).toEqual(open);
    const missing = await ws.api.patch(`${LINKS}/01890000-0000-7000-8000-000000000000`, { title: 'x' });
    expect(missing.statusCode).toBe(404);
    const foreign = await other.api.patch(`${LINKS}/${open.id}`, { title: 'x' });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('party scope', () => {
  it('a party-scoped key creates, sees and changes only its own party’s links', async () => {
    const bia = await ws.addParty('Bia');
    const key = (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: bia })).secret;
    const biaApi = client(ctx.app, key, ws.owner.workspaceId);

    const own = (await biaApi.post(LINKS, { amount_minor: '900' })).json().data;
    expect(own.party_id).toBe(bia);
    const named = await biaApi.post(LINKS, { amount_minor: '900', party_id: ws.owner.defaultPartyId });
    expect(named.statusCode).toBe(403);
    expect(named.json().error).toBe('forbidden');

    const workspaceLink = await ws.createLink();
    expect((await biaApi.get(`${LINKS}/${workspaceLink.id}`)).statusCode).toBe(404);
    expect((await biaApi.patch(`${LINKS}/${workspaceLink.id}`, { title: 'x' })).statusCode).toBe(404);
    const listed = (await biaApi.get(LINKS)).json().data as { party_id: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((l) => l.party_id === bia)).toBe(true);
    expect((await biaApi.get(`${LINKS}?party_id=${ws.owner.defaultPartyId}`)).statusCode).toBe(403);

    // The workspace key sees every party's links and narrows by party_id.
    const byParty = (await ws.api.get(`${LINKS}?party_id=${bia}`)).json().data as { id: string }[];
    expect(byParty.map((l) => l.id)).toContain(own.id);
    const workspaceCreatesForBia = await ws.api.post(LINKS, { amount_minor: '100', party_id: bia });
    expect(workspaceCreatesForBia.json().data.party_id).toBe(bia);
    const foreignParty = await ws.api.post(LINKS, {
      amount_minor: '100',
      party_id: other.owner.defaultPartyId,
    });
    expect(foreignParty.statusCode).toBe(404);
  });
});

describe('acting on a sub-account (X-Subaccount-Id)', () => {
  it('a parent creates and reads its sub-account’s links; they are not its own', async () => {
    const child = await ws.addSubaccount();
    const acting = { 'x-subaccount-id': child.id };
    const link = await ws.createLink({ amount_minor: '1500' }, acting);
    expect(link).toMatchObject({ workspace_id: child.id, party_id: child.partyId });
    expect((await ws.api.get(`${LINKS}/${link.id}`, acting)).statusCode).toBe(200);
    expect((await ws.api.get(`${LINKS}/${link.id}`)).statusCode).toBe(404);
    expect((await ws.api.get(LINKS, acting)).json().data.map((l: { id: string }) => l.id)).toEqual([link.id]);

    const stranger = await other.api.get(LINKS, { 'x-subaccount-id': child.id });
    expect(stranger.statusCode).toBe(404);
    const bia = await ws.addParty('Bia');
    const partyKey = (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: bia })).secret;
    const scoped = await client(ctx.app, partyKey, ws.owner.workspaceId).get(LINKS, acting);
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().error).toBe('forbidden');
  });
});
