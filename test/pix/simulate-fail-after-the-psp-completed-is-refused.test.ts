/**
 * `simulate/payments/{id}/fail` on a payout the sandbox PSP has already completed (its own settle rule
 * ran before the failure could be forced) answered 200 with a completed payment, and a retry of the
 * same request then got 422 (seen in the soak). The PSP's outcome stands: the ask is refused with
 * 422 invalid_state, the first time as every time after.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 600_000 });
afterAll(() => world.close());
const ws = await world.workspace('Fail after completed', { settlementKey: true, fund: '10000' });

describe('a payout the PSP completed before it could be failed', () => {
  it('answers 422 invalid_state to fail, every time; the payment is completed once', async () => {
    const payout = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
    });
    expect(payout.statusCode, payout.body).toBe(200);
    const id: string = payout.json().data.id;
    await world.drainJobs(); // sent: processing here and at the PSP
    await world.db.query(`UPDATE sandbox_pix_transfers SET status = 'completed' WHERE payment_id = $1`, [id]);
    for (const key of ['fail-once', 'fail-once', 'fail-again']) {
      const res = await ws.api.post(
        `/v1/sandbox/simulate/payments/${id}/fail`,
        {},
        { 'idempotency-key': key },
      );
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe('invalid_state');
    }
    const read = await ws.api.get(`/v1/sandbox/payments/${id}`);
    expect(read.json().data.status).toBe('completed');
    expect(await ws.balances()).toMatchObject({ locked: '0' });
  });
});
