/**
 * A PIX payout refused for want of available BRL while open disputes hold the party's money says so,
 * as a conversion's refusal does: the merchant sees why money it was credited cannot be paid out.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CPF, startWorld } from '../support/world.ts';
import { openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('a payout refused while a dispute holds the money', () => {
  it('a payout of disputed money is refused naming the dispute that holds it', async () => {
    const ws = await world.workspace('Saque Disputado');
    await ws.setSettlementKey();
    const cashIn = await paidCashIn(ws.api, '10000');
    const dispute = await openDispute(ws.api, cashIn.id, { amount_minor: '8000' });
    const refused = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '5000', pix_key: CPF });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      error: 'insufficient_balance',
      details: expect.arrayContaining([{ field: 'disputes', issue: expect.stringContaining(dispute.id) }]),
    });
    expect(refused.json().message).toContain('8000 BRL minor units of this party are locked by open dispute');
    expect(await ws.balances()).toMatchObject({ available: '2000', locked: '8000' });
  });
});
