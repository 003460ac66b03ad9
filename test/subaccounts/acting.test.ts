/**
 * Acting on a sub-account with X-Subaccount-Id (spec rule 9): a parent funds its sub-account in sandbox
 * and the money lands in the child's ledger, balances, statement and payments, never the parent's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client } from '../support/fixtures.ts';
import { type Parent, parentWorkspace } from './support.ts';

let ctx: TestContext;
let parent: Parent;
let child: { id: string; party_id: string };
beforeAll(async () => {
  ctx = await startTestApp();
  parent = await parentWorkspace(ctx);
  child = await parent.subaccount({ display_name: 'Seller' });
});
afterAll(() => ctx.close());

const acting = () => ({ 'x-subaccount-id': child.id });
const available = (rows: { kind: string; currency: string; balance_minor: string; party_id: string }[]) =>
  rows.filter((b) => b.kind === 'available' && b.currency === 'BRL');

describe('a parent acting on its sub-account', () => {
  it("funds it in sandbox: the money shows in the child's balances and statement, not the parent's", async () => {
    const res = await parent.api.post(
      '/v1/sandbox/simulate/pix/cash-in',
      { amount_minor: '12345' },
      acting(),
    );
    expect(res.statusCode).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({ workspace_id: child.id, party_id: child.party_id, status: 'completed' });

    const childBalances = await parent.api.get('/v1/sandbox/balances', acting());
    expect(available(childBalances.json().data)).toEqual([
      { currency: 'BRL', kind: 'available', balance_minor: '12345', scale: 2, party_id: child.party_id },
    ]);
    const parentBalances = await parent.api.get('/v1/sandbox/balances');
    expect(available(parentBalances.json().data)).toEqual([
      {
        currency: 'BRL',
        kind: 'available',
        balance_minor: '0',
        scale: 2,
        party_id: parent.owner.defaultPartyId,
      },
    ]);

    const childStatement = await parent.api.get('/v1/sandbox/statement', acting());
    expect(childStatement.json().data).toMatchObject([
      { reference_id: payment.id, party_id: child.party_id, direction: 'credit', amount_minor: '12345' },
    ]);
    expect((await parent.api.get('/v1/sandbox/statement')).json().data).toEqual([]);

    // The child's own view agrees: its key (made by the parent owner on the child) sees the same money.
    const key = (await parent.sessionOn(child.id).post('/v1/sandbox/api-keys', { name: 'k' })).json().data
      .secret;
    const own = await client(ctx.app, key, child.id).get('/v1/sandbox/balances');
    expect(available(own.json().data)[0]!.balance_minor).toBe('12345');

    // Payments: listed under the child, unknown to the parent.
    const listed = await parent.api.get('/v1/sandbox/payments', acting());
    expect(listed.json().data.map((p: { id: string }) => p.id)).toContain(payment.id);
    expect((await parent.api.get(`/v1/sandbox/payments/${payment.id}`)).statusCode).toBe(404);
    expect((await parent.api.get(`/v1/sandbox/payments/${payment.id}`, acting())).statusCode).toBe(200);
    const journals = await ctx.db.query<{ workspace_id: string }>(
      "SELECT workspace_id FROM ledger_journals WHERE reference_type = 'payment' AND reference_id = $1",
      [payment.id],
    );
    expect(journals.rows).toEqual([{ workspace_id: child.id }]);
  });

  it("pays out of the child's money with the child's settlement key", async () => {
    const seller = await parent.subaccount({ display_name: 'Payer' });
    const headers = { 'x-subaccount-id': seller.id };
    const key = await parent.sessionOn(seller.id).put('/v1/sandbox/settlement-key', {
      pix_key: 'vendas@loja.com.br',
      holder_name: 'Loja Ltda',
      holder_document: '11222333000181',
    });
    expect(key.statusCode).toBe(200);
    await parent.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '5000' }, headers);
    const payout = await parent.api.post(
      '/v1/sandbox/pix/payouts',
      { amount_minor: '1000', pix_key: '52998224725' },
      headers,
    );
    expect(payout.statusCode).toBe(200);
    expect(payout.json().data).toMatchObject({ workspace_id: seller.id, pix_key: 'vendas@loja.com.br' });
    // The parent has no settlement key of its own: without the header it is refused.
    const own = await parent.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
    });
    expect(own.json().error).toBe('settlement_key_required');
  });

  it('a parent session acts too', async () => {
    const res = await parent.session.get('/v1/sandbox/balances', acting());
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].party_id).toBe(child.party_id);
  });
});

describe('refusals', () => {
  it('403 forbidden for a party-scoped key', async () => {
    const key = await parent.session.post('/v1/sandbox/api-keys', {
      name: 'scoped',
      party_id: parent.owner.defaultPartyId,
    });
    const scoped = client(ctx.app, key.json().data.secret, parent.owner.workspaceId);
    const res = await scoped.get('/v1/sandbox/balances', acting());
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it("404 not_found for a workspace that is not the caller's own child", async () => {
    const stranger = await parentWorkspace(ctx, 'Stranger');
    const theirChild = await stranger.subaccount();
    for (const id of [theirChild.id, stranger.owner.workspaceId, parent.owner.workspaceId]) {
      const res = await parent.api.get('/v1/sandbox/balances', { 'x-subaccount-id': id });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const cashIn = await stranger.api.post(
      '/v1/sandbox/simulate/pix/cash-in',
      { amount_minor: '100' },
      { 'x-subaccount-id': child.id },
    );
    expect(cashIn.statusCode).toBe(404);
  });

  it('400 invalid_request outside the acting groups, or for a malformed id', async () => {
    for (const url of [
      '/v1/sandbox/customers',
      '/v1/sandbox/kyc',
      '/v1/sandbox/subaccounts',
      '/v1/sandbox/api-keys',
    ]) {
      const res = await parent.session.get(url, acting());
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    const malformed = await parent.api.get('/v1/sandbox/balances', { 'x-subaccount-id': 'not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });
});
