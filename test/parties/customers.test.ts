import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client } from '../support/fixtures.ts';
import {
  ALPHANUMERIC_CNPJ,
  CNPJ,
  CPF,
  CPF_MASKED,
  eventTypesOf,
  type PartiesWorkspace,
  partiesWorkspace,
} from './support.ts';

let ctx: TestContext;
let ws: PartiesWorkspace;
let other: PartiesWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await partiesWorkspace(ctx);
  other = await partiesWorkspace(ctx, 'Other Tenant');
});
afterAll(() => ctx.close());

const SPEC_FIELDS = [
  'id',
  'workspace_id',
  'kind',
  'display_name',
  'legal_name',
  'document_type',
  'document_number',
  'email',
  'phone',
  'country',
  'status',
  'kyc_status',
  'external_id',
  'payout_mode',
  'payout_asset',
  'payout_wallet_address',
  'payout_wallet_network',
  'metadata',
  'created_at',
  'updated_at',
];

describe('POST /v1/{env}/customers', () => {
  it('creates a customer with every spec field, customer.created and an audit entry', async () => {
    const res = await ws.api.post('/v1/sandbox/customers', {
      display_name: 'José da Silva',
      legal_name: 'José Antônio da Silva',
      document_type: 'cpf',
      document_number: CPF_MASKED,
      email: 'Jose@Example.com',
      phone: '+5511987654321',
      country: 'BR',
      external_id: 'crm-1',
      metadata: { tier: 'gold' },
    });
    expect(res.statusCode).toBe(200);
    const customer = res.json().data;
    expect(Object.keys(customer).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(customer).toMatchObject({
      workspace_id: ws.owner.workspaceId,
      kind: 'person',
      display_name: 'José da Silva',
      document_type: 'cpf',
      document_number: CPF,
      email: 'jose@example.com',
      status: 'active',
      kyc_status: 'not_started',
      external_id: 'crm-1',
      metadata: { tier: 'gold' },
    });
    const events = await eventTypesOf(ctx, ws.owner.workspaceId);
    expect(events).toContainEqual({ type: 'customer.created', object_id: customer.id });
    const audit = await ws.session.get('/v1/sandbox/audit-events');
    expect(audit.json().data.map((e: { action: string }) => e.action)).toContain('customer.created');
  });

  it('stores the document sealed with a keyed hash beside it, never in clear', async () => {
    const customer = await ws.customer({ document_number: CNPJ, kind: 'business' });
    expect(customer.document_type).toBe('cnpj');
    const { rows } = await ctx.db.query<{ row: string; hash: number | null }>(
      'SELECT p::text AS row, length(document_hash) AS hash FROM parties p WHERE id = $1',
      [customer.id],
    );
    expect(rows[0]!.row).not.toContain(CNPJ);
    expect(rows[0]!.hash).toBe(32);
  });

  it('accepts an alphanumeric CNPJ', async () => {
    const res = await ws.api.post('/v1/sandbox/customers', {
      display_name: 'Nova Ltda',
      kind: 'business',
      document_type: 'cnpj',
      document_number: '12.ABC.345/01DE-35',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.document_number).toBe(ALPHANUMERIC_CNPJ);
  });

  it.each([
    ['a CPF with wrong check digits', { document_number: '52998224726' }],
    ['a CNPJ sent as a CPF', { document_type: 'cpf', document_number: CNPJ }],
    ['a CPF sent as a CNPJ', { document_type: 'cnpj', document_number: CPF }],
    ['a document type with no number', { document_type: 'cpf' }],
    ['an unknown document type', { document_type: 'rg', document_number: CPF }],
    ['an unknown kind', { kind: 'robot' }],
    ['no display_name', { display_name: undefined }],
    ['a bad e-mail', { email: 'not-an-email' }],
  ])('400 invalid_request for %s', async (_name, body) => {
    const res = await ws.api.post('/v1/sandbox/customers', { display_name: 'X', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('409 conflict for an external_id the workspace already uses; another workspace may use it', async () => {
    await ws.customer({ external_id: 'dup-1' });
    const res = await ws.api.post('/v1/sandbox/customers', { display_name: 'Again', external_id: 'dup-1' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('conflict');
    expect((await other.customer({ external_id: 'dup-1' })).external_id).toBe('dup-1');
  });

  it('403 forbidden for a party-scoped key', async () => {
    const customer = await ws.customer();
    const scoped = await ws.partyClient(customer.id);
    const res = await scoped.post('/v1/sandbox/customers', { display_name: 'Sneaky' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it('400 invalid_request with X-Subaccount-Id: customers are not an acting group', async () => {
    const res = await ws.api.post(
      '/v1/sandbox/customers',
      { display_name: 'X' },
      { 'x-subaccount-id': '01890000-0000-7000-8000-000000000000' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});

describe('GET /v1/{env}/customers', () => {
  let searchable: PartiesWorkspace;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    searchable = await partiesWorkspace(ctx, 'Search Tenant');
    ids.jose = (
      await searchable.customer({
        display_name: 'JOSÉ Conceição',
        email: 'ze@correio.com.br',
        document_number: CPF,
      })
    ).id;
    ids.maria = (
      await searchable.customer({
        display_name: 'Maria',
        legal_name: 'Maria Ávila ME',
        external_id: 'ERP-77',
      })
    ).id;
    ids.acme = (
      await searchable.customer({ display_name: 'Acme', kind: 'business', document_number: CNPJ })
    ).id;
    await searchable.api.patch(`/v1/sandbox/customers/${ids.acme}`, { status: 'blocked' });
  });
  const search = async (text: string) => {
    const res = await searchable.api.get(`/v1/sandbox/customers?search=${encodeURIComponent(text)}`);
    expect(res.statusCode).toBe(200);
    return res.json().data.map((c: { id: string }) => c.id);
  };

  it('lists the customers newest first, never the workspace entity party', async () => {
    const res = await searchable.api.get('/v1/sandbox/customers');
    expect(res.statusCode).toBe(200);
    const listed = res.json().data.map((c: { id: string }) => c.id);
    expect(listed).toEqual([ids.acme, ids.maria, ids.jose]);
    expect(listed).not.toContain(searchable.owner.defaultPartyId);
  });

  it('searches names, e-mail and external_id without case or accents', async () => {
    expect(await search('jose conceicao')).toEqual([ids.jose]);
    expect(await search('CONCEIÇÃO')).toEqual([ids.jose]);
    expect(await search('avila')).toEqual([ids.maria]);
    expect(await search('erp-77')).toEqual([ids.maria]);
    expect(await search('CORREIO.com')).toEqual([ids.jose]);
    expect(await search('100%')).toEqual([]);
  });

  it('finds a document exactly, in any punctuation', async () => {
    expect(await search(CPF)).toEqual([ids.jose]);
    expect(await search(CPF_MASKED)).toEqual([ids.jose]);
    expect(await search('529 982 247 25')).toEqual([ids.jose]);
    expect(await search('11.222.333/0001-81')).toEqual([ids.acme]);
    expect(await search('5299822472')).toEqual([]);
  });

  it('filters by status', async () => {
    const res = await searchable.api.get('/v1/sandbox/customers?status=blocked');
    expect(res.json().data.map((c: { id: string }) => c.id)).toEqual([ids.acme]);
  });

  it('pages with limit and cursor', async () => {
    const first = await searchable.api.get('/v1/sandbox/customers?limit=2');
    const page1 = first.json().data.map((c: { id: string }) => c.id);
    expect(page1).toEqual([ids.acme, ids.maria]);
    const second = await searchable.api.get(`/v1/sandbox/customers?limit=2&cursor=${page1[1]}`);
    expect(second.json().data.map((c: { id: string }) => c.id)).toEqual([ids.jose]);
  });

  it.each(['0', '101', 'x'])('400 invalid_request for limit=%s', async (limit) => {
    const res = await searchable.api.get(`/v1/sandbox/customers?limit=${limit}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('400 invalid_request for an unknown status', async () => {
    const res = await searchable.api.get('/v1/sandbox/customers?status=gone');
    expect(res.statusCode).toBe(400);
  });

  it("shows only the caller's workspace", async () => {
    const res = await other.api.get('/v1/sandbox/customers');
    const listed = res.json().data.map((c: { id: string }) => c.id);
    for (const id of Object.values(ids)) expect(listed).not.toContain(id);
  });

  it('403 forbidden for a party-scoped key', async () => {
    const scoped = await searchable.partyClient(ids.jose!);
    const res = await scoped.get('/v1/sandbox/customers');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });
});

describe('GET /v1/{env}/customers/{id}', () => {
  it('returns the customer', async () => {
    const customer = await ws.customer({ document_number: CPF });
    const res = await ws.api.get(`/v1/sandbox/customers/${customer.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(customer);
  });

  it("404 for an unknown id, another workspace's customer, or the workspace's own entity party", async () => {
    const theirs = await other.customer();
    for (const id of ['01890000-0000-7000-8000-000000000000', theirs.id, ws.owner.defaultPartyId]) {
      const res = await ws.api.get(`/v1/sandbox/customers/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('a party-scoped key reads its own party only (another one is 404)', async () => {
    const mine = await ws.customer();
    const theirs = await ws.customer();
    const scoped = await ws.partyClient(mine.id);
    expect((await scoped.get(`/v1/sandbox/customers/${mine.id}`)).statusCode).toBe(200);
    const res = await scoped.get(`/v1/sandbox/customers/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});

describe('PATCH /v1/{env}/customers/{id}', () => {
  it('updates the patchable fields and emits customer.updated', async () => {
    const customer = await ws.customer({ email: 'old@example.com', phone: '+5511911112222' });
    const res = await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, {
      display_name: 'Renamed',
      email: null,
      phone: '+5511933334444',
      external_id: 'crm-99',
      metadata: { note: 'vip' },
      status: 'blocked',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: customer.id,
      display_name: 'Renamed',
      email: null,
      phone: '+5511933334444',
      external_id: 'crm-99',
      metadata: { note: 'vip' },
      status: 'blocked',
    });
    expect(res.json().data.updated_at >= String(customer.created_at)).toBe(true);
    const events = await eventTypesOf(ctx, ws.owner.workspaceId);
    expect(events).toContainEqual({ type: 'customer.updated', object_id: customer.id });
    // The new name is what search finds.
    const found = await ws.api.get('/v1/sandbox/customers?search=renamed');
    expect(found.json().data.map((c: { id: string }) => c.id)).toContain(customer.id);
  });

  it('refuses fields it does not take (document, kind), naming each, and changes nothing', async () => {
    const customer = await ws.customer({ document_number: CPF });
    const res = await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, {
      document_number: CNPJ,
      kind: 'business',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: 'body.document_number', issue: 'unknown field' },
      { field: 'body.kind', issue: 'unknown field' },
    ]);
    const after = (await ws.api.get(`/v1/sandbox/customers/${customer.id}`)).json().data;
    expect(after).toMatchObject({ document_number: CPF, kind: 'person' });
  });

  it('409 conflict for an external_id another customer has', async () => {
    await ws.customer({ external_id: 'taken-2' });
    const customer = await ws.customer();
    const res = await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, { external_id: 'taken-2' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('conflict');
  });

  it('400 invalid_request for an unknown status', async () => {
    const customer = await ws.customer();
    const res = await ws.api.patch(`/v1/sandbox/customers/${customer.id}`, { status: 'deleted' });
    expect(res.statusCode).toBe(400);
  });

  it("404 for another workspace's customer, which stays as it was", async () => {
    const theirs = await other.customer();
    const res = await ws.api.patch(`/v1/sandbox/customers/${theirs.id}`, { display_name: 'Hijacked' });
    expect(res.statusCode).toBe(404);
    const after = await other.api.get(`/v1/sandbox/customers/${theirs.id}`);
    expect(after.json().data.display_name).toBe(theirs.display_name);
  });

  it('403 forbidden for a party-scoped key, even on its own party (spec rule 8)', async () => {
    const mine = await ws.customer();
    const scoped = await ws.partyClient(mine.id);
    const res = await scoped.patch(`/v1/sandbox/customers/${mine.id}`, { display_name: 'Me' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it('a dashboard session may update too', async () => {
    const customer = await ws.customer();
    const res = await ws.session.patch(`/v1/sandbox/customers/${customer.id}`, { display_name: 'By owner' });
    expect(res.statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('never carry a document, neither from a body nor from a search', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp(
      { ...ctx.deps, config: { ...ctx.deps.config, logLevel: 'trace' } },
      { logStream: stream },
    );
    await app.ready();
    try {
      const api = client(app, ws.apiKey, ws.owner.workspaceId);
      expect(
        (await api.post('/v1/sandbox/customers', { display_name: 'Logged', document_number: CPF_MASKED }))
          .statusCode,
      ).toBe(200);
      expect((await api.get(`/v1/sandbox/customers?search=${CPF_MASKED}&limit=5`)).statusCode).toBe(200);
      expect((await api.get(`/v1/sandbox/customers?limit=5&search=${CPF}`)).statusCode).toBe(200);
      const all = lines.join('');
      expect(all).toContain('/v1/sandbox/customers');
      expect(all).not.toContain(CPF);
      expect(all).not.toContain(CPF_MASKED);
      expect(all).not.toContain('529.982');
    } finally {
      await app.close();
    }
  });
});
