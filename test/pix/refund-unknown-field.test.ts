/**
 * A refund names its amount `amount_minor`; without it the whole charge is refunded. A misspelt
 * `amount` must therefore be refused, not dropped: dropped, it turned a partial refund into a full one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('refund body', () => {
  it('a refund with an unknown field `amount` is refused and refunds nothing', async () => {
    const ws = await world.workspace('Refund typo');
    const created = await ws.api.post('/v1/sandbox/pix/charges', {
      amount_minor: '1000',
      payer: { name: 'Bia', document: CPF },
    });
    const charge = created.json().data;
    expect((await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`)).statusCode).toBe(200);
    const before = await ws.balances();

    const res = await ws.api.post(`/v1/sandbox/payments/${charge.id}/refund`, { amount: '1' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_request',
      details: [{ field: 'body.amount', issue: 'unknown field' }],
    });
    await world.drainJobs();
    expect(await ws.balances()).toEqual(before);
    expect(await ws.paymentCount('pix_refund')).toBe(0);
    expect((await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data.status).toBe('completed');
  });
});
