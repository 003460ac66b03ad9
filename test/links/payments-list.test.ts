/**
 * GET /payment-links/payments, as the spec says: data is {items, next_cursor}, limit 1..100 default
 * 25, cursor "<created_at>|<id>", status filter, search by CPF/CNPJ (keyed hash) or payer name
 * (case- and accent-insensitive); tenancy, party scope and sub-accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey } from '../support/fixtures.ts';
import { CNPJ, CPF, checkout, type Link, type LinksWorkspace, linksWorkspace, payer } from './support.ts';

const LIST = '/v1/sandbox/payment-links/payments';

let ctx: TestContext;
let ws: LinksWorkspace;
let link: Link;
const ids: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx);
  link = await ws.createLink({ amount_minor: '1500', title: 'Ingresso' });
  const payers = [
    payer(CPF, 'João da Silva'),
    payer('11.222.333/0001-81', 'Padaria São José Ltda'),
    payer(CPF, 'JOSÉ ÁLVARO'),
    payer('390.533.447-05', 'Ana Maria'),
  ];
  for (const body of payers) ids.push((await checkout(ctx, link.slug, body)).id);
  await ws.api.post(`/v1/sandbox/simulate/payments/${ids[1]}/pay`, {});
});
afterAll(() => ctx.close());

const list = async (query = '', api = ws.api, headers?: Record<string, string>) => {
  const res = await api.get(`${LIST}${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: { id: string; payment_link_id: string; status: string }[];
    next_cursor: string | null;
  };
};
const idsOf = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

describe('GET /payment-links/payments', () => {
  it('answers {items, next_cursor}: payments newest first, each with its link', async () => {
    const page = await list();
    expect(idsOf(page)).toEqual([...ids].reverse());
    expect(page.next_cursor).toBeNull();
    expect(page.items[0]).toMatchObject({
      kind: 'pix_cash_in',
      amount_minor: '1500',
      payment_link_id: link.id,
    });
  });

  it('pages by "<created_at>|<id>" of the last row', async () => {
    const first = await list('?limit=3');
    expect(idsOf(first)).toEqual([ids[3], ids[2], ids[1]]);
    const last = first.items[2] as unknown as { created_at: string; id: string };
    expect(first.next_cursor).toBe(`${last.created_at}|${last.id}`);
    const second = await list(`?limit=3&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(idsOf(second)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
  });

  it('defaults to 25 a page', async () => {
    const busy = await linksWorkspace(ctx, 'Movimentada');
    const shop = await busy.createLink({ amount_minor: '100' });
    for (let i = 0; i < 27; i++) await checkout(ctx, shop.slug, payer(CPF));
    const page = await list('', busy.api);
    expect(page.items).toHaveLength(25);
    expect(page.next_cursor).not.toBeNull();
    expect((await list(`?cursor=${encodeURIComponent(page.next_cursor!)}`, busy.api)).items).toHaveLength(2);
  });

  it('400 invalid_request for a limit out of 1..100, a malformed cursor, an unknown status', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?cursor=abc',
      `?cursor=${encodeURIComponent('2026-13-45T00:00:00.000Z|01890000-0000-7000-8000-000000000000')}`,
      `?cursor=${encodeURIComponent(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`)}`,
      '?status=paid',
      '?search=',
    ]) {
      const res = await ws.api.get(`${LIST}${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('filters by status and by link', async () => {
    expect(idsOf(await list('?status=completed'))).toEqual([ids[1]]);
    expect(idsOf(await list('?status=created'))).toEqual([ids[3], ids[2], ids[0]]);
    const another = await ws.createLink({ amount_minor: '200' });
    const elsewhere = await checkout(ctx, another.slug, payer(CPF));
    expect(idsOf(await list(`?payment_link_id=${another.id}`))).toEqual([elsewhere.id]);
    expect(idsOf(await list(`?payment_link_id=${link.id}`))).toEqual([...ids].reverse());
  });

  it('search: a CPF or CNPJ in any punctuation matches by keyed hash', async () => {
    for (const search of [CPF, '529.982.247-25', '529 982 247 25']) {
      const found = idsOf(await list(`?search=${encodeURIComponent(search)}&payment_link_id=${link.id}`));
      expect(found, search).toEqual([ids[2], ids[0]]);
    }
    expect(idsOf(await list(`?search=${CNPJ}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`?search=${encodeURIComponent('11.222.333/0001-81')}`))).toEqual([ids[1]]);
    // A valid document nobody paid with finds nothing (it is not read as a name).
    expect(idsOf(await list('?search=11144477735'))).toEqual([]);
  });

  it('search: any other text finds the payer name, case- and accent-insensitively', async () => {
    const search = async (text: string) =>
      idsOf(await list(`?search=${encodeURIComponent(text)}&payment_link_id=${link.id}`));
    expect(await search('jose')).toEqual([ids[2], ids[1]]);
    expect(await search('JOÃO')).toEqual([ids[0]]);
    expect(await search('álvaro')).toEqual([ids[2]]);
    expect(await search('padaria sao')).toEqual([ids[1]]);
    // LIKE's wildcards are plain characters here.
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('tenancy: another workspace sees none of them; the live environment neither', async () => {
    const other = await linksWorkspace(ctx, 'Outra');
    expect((await list('', other.api)).items).toEqual([]);
    const live = await ws.session.get('/v1/live/payment-links/payments');
    expect(live.json().data).toEqual({ items: [], next_cursor: null });
  });

  it('party scope: a party-scoped key lists only its own links’ payments; naming another party is 403', async () => {
    const bia = await ws.addParty('Bia');
    const biaApi = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: bia })).secret,
      ws.owner.workspaceId,
    );
    const own = (await biaApi.post('/v1/sandbox/payment-links', { amount_minor: '300' })).json().data;
    const sold = await checkout(ctx, own.slug, payer(CPF));
    expect(idsOf(await list('', biaApi))).toEqual([sold.id]);
    const naming = await biaApi.get(`${LIST}?party_id=${ws.owner.defaultPartyId}`);
    expect(naming.statusCode).toBe(403);
    expect(idsOf(await list(`?party_id=${bia}`))).toEqual([sold.id]);
  });

  it('acting on a sub-account lists the sub-account’s checkout payments', async () => {
    const child = await ws.addSubaccount();
    const acting = { 'x-subaccount-id': child.id };
    const childLink = await ws.createLink({ amount_minor: '400' }, acting);
    const sold = await checkout(ctx, childLink.slug, payer(CPF));
    expect(idsOf(await list('', ws.api, acting))).toEqual([sold.id]);
    expect(idsOf(await list())).not.toContain(sold.id);
  });
});
