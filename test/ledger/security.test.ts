import { afterAll, describe, expect, it } from 'vitest';
import { insertWorkspace } from '../../src/modules/workspace/repo.ts';
import { authHeaders, cashIn, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace();
const { api, owner } = ws;
const customer = await ws.addParty();
const scoped = await ws.keyFor(customer);
const paymentOfDefault = await cashIn(api, '1000');
const paymentOfCustomer = await cashIn(api, '250', customer);

describe('party-scoped keys', () => {
  it('see only their party in balances, statement and payments', async () => {
    const balances = (await scoped.get('/v1/sandbox/balances')).json().data;
    expect(balances.every((row: { party_id: string }) => row.party_id === customer)).toBe(true);
    expect(balances[0]).toMatchObject({ currency: 'BRL', kind: 'available', balance_minor: '250' });
    expect(balances).toHaveLength(3);

    const lines = (await scoped.get('/v1/sandbox/statement')).json().data;
    expect(lines.map((l: { reference_id: string }) => l.reference_id)).toEqual([paymentOfCustomer.id]);

    const payments = (await scoped.get('/v1/sandbox/payments')).json().data;
    expect(payments.map((p: { id: string }) => p.id)).toEqual([paymentOfCustomer.id]);
    expect((await scoped.get(`/v1/sandbox/payments/${paymentOfCustomer.id}`)).statusCode).toBe(200);
  });

  it("get 404 for another party's payment and 400 for another party's statement line as cursor", async () => {
    const res = await scoped.get(`/v1/sandbox/payments/${paymentOfDefault.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    const [line] = (await api.get(`/v1/sandbox/statement?party_id=${owner.defaultPartyId}`)).json().data;
    const cursor = await scoped.get(`/v1/sandbox/statement?cursor=${line.id}`);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().error).toBe('invalid_request');
  });

  it('get 403 forbidden when asking for another party', async () => {
    for (const url of [
      `/v1/sandbox/balances?party_id=${owner.defaultPartyId}`,
      `/v1/sandbox/statement?party_id=${owner.defaultPartyId}`,
      `/v1/sandbox/payments?party_id=${owner.defaultPartyId}`,
    ]) {
      const res = await scoped.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    const credit = await scoped.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '1',
      party_id: owner.defaultPartyId,
    });
    expect(credit.statusCode).toBe(403);
    expect(credit.json().error).toBe('forbidden');
  });

  it('credit their own party when party_id is omitted', async () => {
    const payment = await cashIn(scoped, '5');
    expect(payment.party_id).toBe(customer);
    const res = await scoped.get(`/v1/sandbox/balances?party_id=${customer}&currency=BRL`);
    expect(res.json().data[0].balance_minor).toBe('255');
  });
});

describe('tenant isolation', () => {
  it("another workspace's party is 404, its payments do not exist, its money does not show", async () => {
    const other = await world.workspace('Other');
    const foreign = await cashIn(other.api, '999');
    for (const url of [
      `/v1/sandbox/balances?party_id=${other.owner.defaultPartyId}`,
      `/v1/sandbox/statement?party_id=${other.owner.defaultPartyId}`,
      `/v1/sandbox/payments?party_id=${other.owner.defaultPartyId}`,
      `/v1/sandbox/payments/${foreign.id}`,
    ]) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const mine = (await api.get('/v1/sandbox/payments')).json().data;
    expect(mine.some((p: { id: string }) => p.id === foreign.id)).toBe(false);
  });

  it('a key of one workspace cannot read another by changing X-Workspace-Id', async () => {
    const other = await world.workspace('Other');
    const res = await world.app.inject({
      method: 'GET',
      url: '/v1/sandbox/balances',
      headers: authHeaders(other.key.secret, owner.workspaceId),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });

  it('requires credentials', async () => {
    for (const url of ['/v1/sandbox/balances', '/v1/sandbox/statement', '/v1/sandbox/payments']) {
      const res = await world.app.inject({
        method: 'GET',
        url,
        headers: { 'x-workspace-id': owner.workspaceId },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('missing_credentials');
    }
  });
});

describe('sub-accounts (X-Subaccount-Id)', () => {
  it("reads and credits the sub-account's own ledger", async () => {
    const childParty = await world.db.transaction(async (tx) => {
      const child = await insertWorkspace(tx, { displayName: 'Child', parentWorkspaceId: owner.workspaceId });
      return { id: child.id, party: child.default_party_id };
    });
    const headers = { 'x-subaccount-id': childParty.id };
    const credit = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '42' }, headers);
    expect(credit.statusCode).toBe(200);
    expect(credit.json().data).toMatchObject({ workspace_id: childParty.id, party_id: childParty.party });
    const balances = (await api.get('/v1/sandbox/balances', headers)).json().data;
    expect(balances[0]).toMatchObject({ party_id: childParty.party, balance_minor: '42' });
    expect((await api.get('/v1/sandbox/statement', headers)).json().data).toHaveLength(1);
    expect((await api.get('/v1/sandbox/payments', headers)).json().data).toHaveLength(1);
    // The parent's own ledger is untouched.
    const parent = (
      await api.get(`/v1/sandbox/balances?party_id=${owner.defaultPartyId}&currency=BRL`)
    ).json().data;
    expect(parent[0].balance_minor).toBe('1000');
    // A party-scoped key cannot act on a sub-account.
    const res = await scoped.get('/v1/sandbox/balances', headers);
    expect(res.statusCode).toBe(403);
  });
});
