/** A blocked customer's money cannot move: its payouts and refunds answer 403 forbidden, saying why. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { CNPJ, type PartiesWorkspace, partiesWorkspace } from './support.ts';

let ctx: TestContext;
let ws: PartiesWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await partiesWorkspace(ctx);
});
afterAll(() => ctx.close());

async function fund(partyId: string, amount: string) {
  const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', {
    amount_minor: amount,
    party_id: partyId,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: string };
}

const block = (id: string, status: 'blocked' | 'active' = 'blocked') =>
  ws.api.patch(`/v1/sandbox/customers/${id}`, { status });

describe('a blocked customer', () => {
  it('is refused before the settlement key is even looked at (who before how)', async () => {
    const customer = await ws.customer();
    await block(customer.id);
    const res = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '100',
      pix_key: '52998224725',
      party_id: customer.id,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect(res.json().message).toMatch(/blocked/);
  });

  it('cannot pay out or refund until it is active again; its balance stays whole', async () => {
    await ws.session.put('/v1/sandbox/settlement-key', {
      pix_key: 'tesouraria@acme.com.br',
      holder_name: 'Acme Pagamentos Ltda',
      holder_document: CNPJ,
    });
    const customer = await ws.customer();
    const cashIn = await fund(customer.id, '5000');
    await block(customer.id);
    const payout = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
      party_id: customer.id,
    });
    expect(payout.statusCode).toBe(403);
    expect(payout.json().message).toMatch(/blocked/);
    const refund = await ws.api.post(`/v1/sandbox/payments/${cashIn.id}/refund`, { amount_minor: '100' });
    expect(refund.statusCode).toBe(403);
    expect(refund.json().error).toBe('forbidden');
    const balances = await ws.api.get(`/v1/sandbox/balances?party_id=${customer.id}&currency=BRL`);
    expect(balances.json().data.find((b: { kind: string }) => b.kind === 'available').balance_minor).toBe(
      '5000',
    );

    // Money may still arrive; it just cannot leave.
    await fund(customer.id, '100');
    await block(customer.id, 'active');
    const again = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
      party_id: customer.id,
    });
    expect(again.statusCode).toBe(200);
  });

  it('blocks a party-scoped key of that customer too', async () => {
    const customer = await ws.customer();
    await fund(customer.id, '5000');
    const scoped = await ws.partyClient(customer.id);
    await block(customer.id);
    const res = await scoped.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/blocked/);
  });
});
